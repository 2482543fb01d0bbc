"""Buttons (Benjamin Schwer, Noris Spiele): the rules engine on game records, with teaching aids.

Record options: ``{"boards": {"Ann": ["RYGBRY", ... 6 rows]}, "bonus": {"Ann": ["red"]}}``.
``boards`` is required (the layouts of the 8 board sides are read by the camera or typed in).
``bonus`` holds each player's bonus-colour cards in round 1 (``red yellow green blue``); when it is
left out, the cards are dealt in seat order: 4 players red, yellow, green, blue; 3 players red,
yellow, green (blue removed); 2 players red+yellow, green+blue. From round 2 on the cards pass
clockwise, and the holder of the red card starts every round.

Events (shared/spec/game-records.md): ``roll``, ``place``, ``optout``, ``stars``.
- A ``roll`` is made by the active player and lists every black white-pip die still in play.
- After a roll the roller must ``place`` one button on (white, any black die) when a legal cell
  exists; every other player still in the round may ``place`` one on (white, gold), in any order.
  When the roller has no legal cell the engine declares the bust in that roll's explanation; the
  others may still use the gold cell (ruling R5). The next ``roll`` or ``optout`` closes the
  placements; it is refused while the roller still owes a button.
- When every player is out (opted out or busted) the round ends; then each player who earned
  stars sends a ``stars`` event, in seat order from the red holder (ruling R6). After the last
  one the end of the game is checked (ruling R2) and, if it goes on, the next round starts.

``next`` (``next_player()``): while stars are due, the player who must place them; otherwise the
roller while they still owe their button for the last roll; otherwise the active player, who
rolls or opts out. Optional gold-die placements never hold up ``next``.

``view()`` returns a JSON-able snapshot::

    {"game", "scores", "over", "winners", "next", "stars"     -- the replay summary
     "round": 3, "phase": "turn" | "stars" | "over",
     "players": [...], "boards": {name: [6 strings]}, "buttons": {name: [[r, c], ...]},
     "bonus": {name: ["red", ...]}, "red_holder": name, "active": name | None,
     "in_round": [names], "out": {name: "optout" | "bust"},
     "dice": {"white": 1, "gold": 1, "black": 3, "set_aside": 1},
     "last_roll": {"player", "type": "roll", "white", "gold", "black"} | None,
     "must_place": name | None,           -- the roller, while they owe a button
     "placeable": {name: [[r, c], ...]},  -- cells each player may still use for the last roll
     "legal": {name: [[r, c], ...]},      -- every legal cell of each board (for highlighting)
     "bust_odds": {"player", "chance": float, "exact": "n/d"} | None,
     "optout_stars": int | None,          -- for the active player, None when they cannot opt out
     "stars_due": [{"player", "stars", "why": {"en", "nl"}}],
     "rounds": [{name: {"result": "optout" | "bust", "stars": n}}, ...],
     "explanation": {"en", "nl"} | None,  -- what the last event did
     "outcome": {"termination", "why": {"en", "nl"}} | None}

Teaching helpers (methods): ``legal_cells``, ``placeable``, ``bust_chance`` (exact Fraction) /
``bust_probability`` (float), ``optout_stars``, ``stars_reasons``, ``dice_in_play``, ``can_roll``
and ``legal_events``. Board arithmetic lives in ``buttons_board``; seeded random play (tests,
benchmark, the example record) in ``buttons_play``.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from companion.core import (
    Applied,
    Game,
    IllegalEvent,
    Outcome,
    SetupError,
    Text,
    check_keys,
    field_of,
    names_list,
    require,
)
from companion.games.buttons_board import (
    LETTERS,
    SIZE,
    Cell,
    bust_chance,
    colour_counts,
    colour_of,
    has_line_of_five,
    is_legal,
    legal_cells,
    scoring_colours,
)

# -- constants ---------------------------------------------------------------------------------
WHITE_PIP_BLACK_DICE = 4
COLOUR_NAMES = {"red": "R", "yellow": "Y", "green": "G", "blue": "B"}
LETTER_NAMES = {letter: name for name, letter in COLOUR_NAMES.items()}
COLOUR_TEXT = {"R": Text("red", "rood"), "Y": Text("yellow", "geel"),
               "G": Text("green", "groen"), "B": Text("blue", "blauw")}
DEFAULT_BONUS = {
    2: (("R", "Y"), ("G", "B")),
    3: (("R",), ("Y",), ("G",)),
    4: (("R",), ("Y",), ("G",), ("B",)),
}
STARS_TO_END = 12


# -- setup / options ---------------------------------------------------------------------------
def parse_boards(players: tuple[str, ...], boards: Any) -> dict[str, tuple[str, ...]]:
    """Each player's 6 x 6 colour layout, checked letter by letter."""
    if boards is None:
        raise SetupError("options need 'boards': each player's board as 6 rows of 6 letters R Y G B")
    if not isinstance(boards, dict):
        raise SetupError("'boards' must map each player to a board of 6 rows of 6 letters R Y G B")
    for name in boards:
        if name not in players:
            raise SetupError(f"'boards' names {name!r}, who is not playing")
    out: dict[str, tuple[str, ...]] = {}
    for name in players:
        if name not in boards:
            raise SetupError(f"{name} has no board in 'boards'")
        rows = boards[name]
        if not isinstance(rows, list) or len(rows) != SIZE:
            raise SetupError(f"{name}'s board must be a list of 6 rows")
        for i, row in enumerate(rows, 1):
            if not isinstance(row, str) or len(row) != SIZE or any(ch not in LETTERS for ch in row):
                raise SetupError(f"row {i} of {name}'s board must be 6 letters from R Y G B")
        out[name] = tuple(rows)
    return out


def parse_bonus(players: tuple[str, ...], bonus: Any) -> dict[str, tuple[str, ...]]:
    """Each player's bonus-colour letters in round 1: legal for the player count, never doubled."""
    n = len(players)
    if bonus is None:
        return dict(zip(players, DEFAULT_BONUS[n], strict=True))
    if not isinstance(bonus, dict):
        raise SetupError("'bonus' must map each player to a list of bonus colours")
    for name in bonus:
        if name not in players:
            raise SetupError(f"'bonus' names {name!r}, who is not playing")
    per_player = 2 if n == 2 else 1
    out: dict[str, tuple[str, ...]] = {}
    seen: set[str] = set()
    for name in players:
        cards = bonus.get(name)
        if not isinstance(cards, list) or len(cards) != per_player:
            raise SetupError(f"with {n} players each player holds {per_player} bonus colour"
                             f"{'s' if per_player > 1 else ''}; {name} does not")
        letters = []
        for card in cards:
            if not isinstance(card, str) or card not in COLOUR_NAMES:
                raise SetupError(f"{name}'s bonus colour must be one of red, yellow, green, blue")
            if card in seen:
                raise SetupError(f"there is only one {card} bonus card, and two players hold it")
            seen.add(card)
            letters.append(COLOUR_NAMES[card])
        out[name] = tuple(letters)
    if "red" not in seen:
        raise SetupError("someone must hold the red bonus card: it is never the card removed")
    return out


# -- events ------------------------------------------------------------------------------------
def _die(event: dict[str, Any], key: str) -> int:
    value = field_of(event, key, int, "a die value from 1 to 6")
    require(1 <= value <= SIZE, f"'{key}' must be a die value from 1 to 6, not {value}",
            f"'{key}' moet een dobbelsteenwaarde van 1 tot 6 zijn, niet {value}")
    return value


def _player(event: dict[str, Any], players: tuple[str, ...]) -> str:
    name = field_of(event, "player", str, "a player's name")
    require(name in players, f"{name!r} is not playing", f"{name!r} speelt niet mee")
    return name


@dataclass(frozen=True)
class Roll:
    """The active player's roll: white die (row), gold-pip black die and the white-pip black dice."""

    white: int
    gold: int
    black: tuple[int, ...]

    @staticmethod
    def parse(event: dict[str, Any]) -> Roll:
        check_keys(event, {"white", "gold", "black"})
        white, gold = _die(event, "white"), _die(event, "gold")
        black = field_of(event, "black", list, "the list of black white-pip dice values")
        for value in black:
            require(isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= SIZE,
                    "'black' must list die values from 1 to 6",
                    "'black' moet dobbelsteenwaarden van 1 tot 6 bevatten")
        return Roll(white, gold, tuple(black))

    @property
    def columns(self) -> tuple[int, ...]:
        """Every column the roller may use: the gold die and each white-pip black die."""
        return tuple(sorted({self.gold, *self.black}))

    def to_json(self) -> dict[str, Any]:
        return {"type": "roll", "white": self.white, "gold": self.gold, "black": list(self.black)}


@dataclass(frozen=True)
class Place:
    """One button placed after the last roll."""

    player: str
    row: int
    col: int

    @staticmethod
    def parse(event: dict[str, Any], players: tuple[str, ...]) -> Place:
        check_keys(event, {"player", "row", "col"})
        return Place(_player(event, players), _die(event, "row"), _die(event, "col"))

    def to_json(self) -> dict[str, Any]:
        return {"type": "place", "player": self.player, "row": self.row, "col": self.col}


@dataclass(frozen=True)
class OptOut:
    """The active player leaves the round instead of rolling."""

    player: str

    @staticmethod
    def parse(event: dict[str, Any], players: tuple[str, ...]) -> OptOut:
        check_keys(event, {"player"})
        return OptOut(_player(event, players))

    def to_json(self) -> dict[str, Any]:
        return {"type": "optout", "player": self.player}


@dataclass(frozen=True)
class Stars:
    """End of round: the cells where a player puts the stars they earned."""

    player: str
    cells: tuple[Cell, ...]

    @staticmethod
    def parse(event: dict[str, Any], players: tuple[str, ...]) -> Stars:
        check_keys(event, {"player", "cells"})
        player = _player(event, players)
        cells = field_of(event, "cells", list, "a list of [row, column] cells")
        out = []
        for cell in cells:
            require(isinstance(cell, list) and len(cell) == 2
                    and all(isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= SIZE for v in cell),
                    "each star cell must be [row, column] with values from 1 to 6",
                    "elk stervak moet [rij, kolom] zijn met waarden van 1 tot 6")
            out.append((cell[0], cell[1]))
        return Stars(player, tuple(out))

    def to_json(self) -> dict[str, Any]:
        return {"type": "stars", "player": self.player, "cells": [list(c) for c in self.cells]}


# -- rules helpers -----------------------------------------------------------------------------
def cell_text(cell: Cell) -> Text:
    return Text(f"row {cell[0]}, column {cell[1]}", f"rij {cell[0]}, kolom {cell[1]}")


def cells_text(cells: list[Cell] | tuple[Cell, ...]) -> Text:
    en = names_list([f"({r},{c})" for r, c in cells], "en")
    nl = names_list([f"({r},{c})" for r, c in cells], "nl")
    return Text(en, nl)


def choice_text(cells: list[Cell]) -> Text:
    """'(3,1)' or 'one of (3,1), (3,4) or (3,6)': where a button may go."""
    if len(cells) == 1:
        return cells_text(cells)
    listed = [f"({r},{c})" for r, c in cells]
    return Text(f"one of {', '.join(listed[:-1])} or {listed[-1]}", f"een van {', '.join(listed[:-1])} of {listed[-1]}")


def colours_text(letters: list[str] | tuple[str, ...]) -> Text:
    return Text(names_list([COLOUR_TEXT[x].en for x in letters], "en"),
                names_list([COLOUR_TEXT[x].nl for x in letters], "nl"))


def plural(n: int, en: tuple[str, str], nl: tuple[str, str]) -> Text:
    return Text(f"{n} {en[0] if n == 1 else en[1]}", f"{n} {nl[0] if n == 1 else nl[1]}")


def stars_word(n: int) -> Text:
    return plural(n, ("star", "stars"), ("ster", "sterren"))


def buttons_word(n: int) -> Text:
    return plural(n, ("button", "buttons"), ("knoop", "knopen"))


def earned_stars(board: tuple[str, ...], buttons: set[Cell], bonus: tuple[str, ...],
                 opted_out: bool) -> tuple[int, Text]:
    """Stars for a round and why: 1 for opting out, 1 per colour with 3+ buttons, 1 per bonus one."""
    if not opted_out:
        return 0, Text("a bust earns no stars", "wie bust gaat, krijgt geen sterren")
    colours = scoring_colours(board, buttons)
    bonus_hits = [x for x in colours if x in bonus]
    parts = [Text("1 for opting out", "1 voor uitstappen")]
    if colours:
        parts.append(Text(f"{len(colours)} for 3 buttons in {colours_text(colours).en}",
                          f"{len(colours)} voor 3 knopen in {colours_text(colours).nl}"))
    if bonus_hits:
        parts.append(Text(f"{len(bonus_hits)} bonus for {colours_text(bonus_hits).en}",
                          f"{len(bonus_hits)} bonus voor {colours_text(bonus_hits).nl}"))
    why = Text(names_list([p.en for p in parts], "en"), names_list([p.nl for p in parts], "nl"))
    return 1 + len(colours) + len(bonus_hits), why


# -- the game ----------------------------------------------------------------------------------
class Buttons(Game):
    """A game of Buttons: rounds of rolling and placing buttons, stars at the end of each round."""

    name = "buttons"
    title = Text("Buttons", "Buttons")
    min_players = 2
    max_players = 4
    option_keys = frozenset({"boards", "bonus"})

    def __init__(self, players: list[str], options: dict[str, Any] | None = None):
        super().__init__(players, options)
        self.boards = parse_boards(self.players, self.options.get("boards"))
        self.first_bonus = parse_bonus(self.players, self.options.get("bonus"))
        self.stars: dict[str, set[Cell]] = {p: set() for p in self.players}
        self.rounds: list[dict[str, tuple[str, int]]] = []
        self.round_no = 1
        self._outcome: Outcome | None = None
        self._last: Applied | None = None
        self._start_round()

    # -- round bookkeeping -------------------------------------------------------------------
    def _start_round(self) -> None:
        self.buttons: dict[str, set[Cell]] = {p: set() for p in self.players}
        self.out: dict[str, str] = {}  # player -> "optout" | "bust"
        self.set_aside = 0
        self.active: str | None = self.red_holder()
        self.last_roll: Roll | None = None
        self.roller: str | None = None
        self.placed: set[str] = set()
        self.stars_due: list[tuple[str, int, Text]] = []
        self.phase = "turn"

    @property
    def per_out(self) -> int:
        """White-pip black dice set aside per opt-out or bust: two in a 2-player game."""
        return 2 if len(self.players) == 2 else 1

    def bonus(self, player: str) -> tuple[str, ...]:
        """The bonus-colour letters a player holds this round (cards pass clockwise each round)."""
        n = len(self.players)
        seat = self.players.index(player)
        return self.first_bonus[self.players[(seat - (self.round_no - 1)) % n]]

    def red_holder(self) -> str:
        """Who holds the red bonus card this round: they start the round."""
        return next(p for p in self.players if "R" in self.bonus(p))

    def in_round(self) -> list[str]:
        """Players still in the round, in seat order."""
        return [p for p in self.players if p not in self.out]

    def seat_order_from_red(self) -> list[str]:
        start = self.players.index(self.red_holder())
        return [self.players[(start + i) % len(self.players)] for i in range(len(self.players))]

    def _next_in_round(self, after: str) -> str | None:
        n = len(self.players)
        seat = self.players.index(after)
        for i in range(1, n + 1):
            p = self.players[(seat + i) % n]
            if p not in self.out:
                return p
        return None

    def dice_in_play(self) -> dict[str, int]:
        """The dice the active player rolls: the white die, the gold-pip black die and the rest."""
        return {"white": 1, "gold": 1, "black": WHITE_PIP_BLACK_DICE - self.set_aside,
                "set_aside": self.set_aside}

    def owes_place(self) -> str | None:
        """The roller, while they still must place a button for the last roll."""
        r = self.roller
        if r is None or r in self.out or r in self.placed:
            return None
        return r

    # -- teaching helpers --------------------------------------------------------------------
    def legal_cells(self, player: str, roll: Roll | dict[str, Any] | None = None) -> list[Cell]:
        """Cells of the player's board that could take a button now.

        Without ``roll``: every legal cell (to highlight the board). With a roll (a Roll or its
        event dict): the legal cells that roll offers the player: (white, any black die) for the
        player who rolls it, (white, gold) for everyone else. For the last roll the roller is
        known; for another roll the active player is taken as the roller.
        """
        buttons, stars = self.buttons[player], self.stars[player]
        if roll is None:
            return legal_cells(buttons, stars)
        if isinstance(roll, dict):
            roll = Roll.parse({k: v for k, v in roll.items() if k != "type"})
        roller = self.roller if roll == self.last_roll else self.active
        columns = roll.columns if player == roller else (roll.gold,)
        return [(roll.white, c) for c in columns if is_legal((roll.white, c), buttons, stars)]

    def placeable(self, player: str) -> list[Cell]:
        """Cells the player may still place a button on for the last roll (empty when they may not)."""
        if self.phase != "turn" or self.last_roll is None or player in self.out or player in self.placed:
            return []
        return self.legal_cells(player, self.last_roll)

    def bust_chance(self, player: str | None = None) -> Fraction:
        """Exact chance that the player (default: the active player) busts rolling the dice in play now.

        Every outcome of the white die and the black dice in play (gold one included) counts;
        a player out of the round, or a moment with no roll to come, gives 0.
        """
        player = self.active if player is None else player
        if player is None or player in self.out or self.phase != "turn":
            return Fraction(0)
        black_dice = 1 + WHITE_PIP_BLACK_DICE - self.set_aside
        return bust_chance(self.buttons[player], self.stars[player], black_dice)

    def bust_probability(self, player: str | None = None) -> float:
        """``bust_chance`` as a float, for the screen."""
        return float(self.bust_chance(player))

    def optout_stars(self, player: str | None = None) -> int | None:
        """Stars the player (default: the active player) would earn by opting out now.

        None when they may not opt out now (not their turn, no button this round, or a button
        still owed for the last roll).
        """
        player = self.active if player is None else player
        if (player is None or self.phase != "turn" or player != self.active or not self.buttons[player]
                or self.owes_place() is not None):
            return None
        return earned_stars(self.boards[player], self.buttons[player], self.bonus(player), True)[0]

    def stars_reasons(self, player: str) -> tuple[int, Text]:
        """Stars the player has earned this round as things stand, and why (still in: as if opting out now)."""
        return earned_stars(self.boards[player], self.buttons[player], self.bonus(player),
                            self.out.get(player) == "optout" or (player not in self.out))

    def can_roll(self) -> bool:
        """True when a ``roll`` is legal now: the turn phase, and no button owed for the last roll."""
        return self._outcome is None and self.phase == "turn" and self.owes_place() is None

    def legal_events(self) -> list[dict[str, Any]]:
        """Every ``place`` and ``optout`` event legal now (for touch buttons and random play-outs).

        Dice and star cells are the players' choice: a ``roll`` is legal when ``can_roll()``, and
        ``stars`` go on any ``stars_due[0]`` count of that player's button cells.
        """
        if self._outcome is not None or self.phase != "turn":
            return []
        events: list[dict[str, Any]] = [Place(p, r, c).to_json() for p in self.players for r, c in self.placeable(p)]
        if self.active is not None and self.optout_stars() is not None:
            events.append(OptOut(self.active).to_json())
        return events

    # -- events ------------------------------------------------------------------------------
    def _apply(self, event: dict[str, Any]) -> Applied:
        kind = event.get("type")
        if kind == "roll":
            applied = self._roll(Roll.parse(event))
        elif kind == "place":
            applied = self._place(Place.parse(event, self.players))
        elif kind == "optout":
            applied = self._optout(OptOut.parse(event, self.players))
        elif kind == "stars":
            applied = self._stars(Stars.parse(event, self.players))
        else:
            raise IllegalEvent(Text(f"unknown event type {kind!r} (Buttons knows roll, place, optout, stars)",
                                    f"onbekend soort zet {kind!r} (Buttons kent roll, place, optout, stars)"))
        self._last = applied
        return applied

    def _require_turn_phase(self) -> None:
        if self.phase == "stars":
            who = self.stars_due[0][0]
            raise IllegalEvent(Text(f"the round is over: {who} must first place their stars",
                                    f"de ronde is voorbij: {who} moet eerst sterren leggen"))

    def _require_closed(self) -> None:
        owes = self.owes_place()
        if owes is not None and self.last_roll is not None:
            cells = choice_text(self.legal_cells(owes, self.last_roll))
            raise IllegalEvent(Text(f"{owes} must first place a button for their roll, on {cells.en}",
                                    f"{owes} moet eerst een knoop leggen voor de worp, op {cells.nl}"))

    def _roll(self, roll: Roll) -> Applied:
        self._require_turn_phase()
        self._require_closed()
        player = self.active
        assert player is not None  # in the turn phase someone is always in the round
        expected = WHITE_PIP_BLACK_DICE - self.set_aside
        require(len(roll.black) == expected,
                f"{player} rolls {expected} white-pip black dice (plus white and gold), "
                f"so 'black' needs {expected} values, not {len(roll.black)}",
                f"{player} gooit {expected} zwarte dobbelstenen met witte ogen (plus wit en goud), "
                f"dus 'black' moet {expected} waarden hebben, niet {len(roll.black)}")
        # -- valid: change the state
        self.last_roll, self.roller, self.placed = roll, player, set()
        dice = Text(f"{player} rolls white {roll.white}, gold {roll.gold}"
                    + (f", black {', '.join(map(str, roll.black))}" if roll.black else "") + ".",
                    f"{player} gooit wit {roll.white}, goud {roll.gold}"
                    + (f", zwart {', '.join(map(str, roll.black))}" if roll.black else "") + ".")
        mine = self.legal_cells(player, roll)
        others = [p for p in self.in_round() if p != player and self.legal_cells(p, roll)]
        gold = Text(f"{names_list(others)} may place on ({roll.white},{roll.gold}) with the gold die.",
                    f"{names_list(others, 'nl')} {'mag' if len(others) == 1 else 'mogen'} op "
                    f"({roll.white},{roll.gold}) leggen met de gouden dobbelsteen.") if others else Text("", "")
        if mine:
            self.active = self._next_in_round(player)
            told = Text(f"{player} must place a button on {choice_text(mine).en}.",
                        f"{player} moet een knoop leggen op {choice_text(mine).nl}.")
            return Applied(dice + told + gold)
        lost = len(self.buttons[player])
        self.buttons[player] = set()
        self.out[player] = "bust"
        self.set_aside += self.per_out
        self.active = self._next_in_round(player)
        aside = Text("one black die" if self.per_out == 1 else "two black dice",
                     "een zwarte dobbelsteen" if self.per_out == 1 else "twee zwarte dobbelstenen")
        cols = [str(c) for c in roll.columns]
        either = Text(" or ".join([", ".join(cols[:-1]), cols[-1]] if len(cols) > 1 else cols),
                      " of ".join([", ".join(cols[:-1]), cols[-1]] if len(cols) > 1 else cols))
        bust = Text(f"No legal cell in row {roll.white}, column {either.en}: "
                    f"{player} busts, loses {buttons_word(lost).en} of this round, sets {aside.en} aside "
                    f"and is out of the round.",
                    f"Geen geldig vak in rij {roll.white}, kolom {either.nl}: "
                    f"{player} is bust, verliest {buttons_word(lost).nl} van deze ronde, legt {aside.nl} "
                    f"opzij en ligt uit de ronde.")
        return self._after_leaving(dice + bust + gold, {"bust"})

    def _place(self, place: Place) -> Applied:
        self._require_turn_phase()
        p, cell = place.player, (place.row, place.col)
        roll = self.last_roll
        require(roll is not None, "there is no roll to place a button for yet",
                "er is nog geen worp om een knoop voor te leggen")
        assert roll is not None
        status = self.out.get(p)
        require(status is None,
                f"{p} is out of the round ({'busted' if status == 'bust' else 'opted out'}) and places no buttons",
                f"{p} ligt uit de ronde ({'bust' if status == 'bust' else 'uitgestapt'}) en legt geen knopen")
        require(p not in self.placed, f"{p} already placed a button for this roll",
                f"{p} heeft al een knoop gelegd voor deze worp")
        if p == self.roller:
            require(place.row == roll.white and place.col in roll.columns,
                    f"{p} rolled: the button goes in row {roll.white}, column "
                    f"{names_list([str(c) for c in roll.columns], 'en').replace(' and ', ' or ')}",
                    f"{p} gooide: de knoop komt in rij {roll.white}, kolom "
                    f"{names_list([str(c) for c in roll.columns], 'nl').replace(' en ', ' of ')}")
        else:
            require(cell == (roll.white, roll.gold),
                    f"{p} did not roll: only ({roll.white},{roll.gold}) (white and gold die) may be used",
                    f"{p} gooide niet: alleen ({roll.white},{roll.gold}) (witte en gouden dobbelsteen) mag")
        require(is_legal(cell, self.buttons[p], self.stars[p]),
                f"({cell[0]},{cell[1]}) is not free on {p}'s board: it holds a button or a star, "
                f"or a button lies next to it",
                f"({cell[0]},{cell[1]}) is niet vrij op het bord van {p}: er ligt een knoop of ster op, "
                f"of er ligt een knoop naast")
        # -- valid: change the state
        self.buttons[p].add(cell)
        self.placed.add(p)
        colour = colour_of(self.boards[p], cell)
        same = colour_counts(self.boards[p], self.buttons[p])[colour]
        return Applied(Text(f"{p} places a button on {cell_text(cell).en} ({COLOUR_TEXT[colour].en}): "
                            f"{buttons_word(len(self.buttons[p])).en} this round, {same} {COLOUR_TEXT[colour].en}.",
                            f"{p} legt een knoop op {cell_text(cell).nl} ({COLOUR_TEXT[colour].nl}): "
                            f"{buttons_word(len(self.buttons[p])).nl} deze ronde, {same} {COLOUR_TEXT[colour].nl}."))

    def _optout(self, opt: OptOut) -> Applied:
        self._require_turn_phase()
        p = opt.player
        self._require_closed()
        require(p == self.active, f"it is {self.active}'s turn to roll or opt out, not {p}'s",
                f"{self.active} is aan de beurt om te gooien of uit te stappen, niet {p}")
        require(bool(self.buttons[p]),
                f"{p} has placed no button this round, so {p} cannot opt out and must roll",
                f"{p} heeft deze ronde nog geen knoop gelegd, dus {p} mag niet uitstappen en moet gooien")
        # -- valid: change the state
        stars, why = self.stars_reasons(p)
        self.out[p] = "optout"
        self.set_aside += self.per_out
        self.last_roll, self.roller, self.placed = None, None, set()
        self.active = self._next_in_round(p)
        aside = Text("one black die" if self.per_out == 1 else "two black dice",
                     "een zwarte dobbelsteen" if self.per_out == 1 else "twee zwarte dobbelstenen")
        text = Text(f"{p} opts out with {buttons_word(len(self.buttons[p])).en}, sets {aside.en} aside "
                    f"and will earn {stars_word(stars).en}: {why.en}.",
                    f"{p} stapt uit met {buttons_word(len(self.buttons[p])).nl}, legt {aside.nl} opzij "
                    f"en krijgt {stars_word(stars).nl}: {why.nl}.")
        return self._after_leaving(text, set())

    def _after_leaving(self, text: Text, signals: set[str]) -> Applied:
        """A player left the round (bust or opt-out): when nobody is left, the round ends."""
        if self.active is None:
            text = text + self._end_round()
            signals.add("round-end")
            if self.is_over:
                signals.add("game-over")
        return Applied(text, frozenset(signals))

    def _end_round(self) -> Text:
        """Everyone is out: work out the stars due, in seat order from the red holder."""
        self.last_roll, self.roller, self.placed = None, None, set()
        result: dict[str, tuple[str, int]] = {}
        for p in self.seat_order_from_red():
            stars, why = self.stars_reasons(p)
            result[p] = (self.out[p], stars)
            if stars:
                self.stars_due.append((p, stars, why))
        self.rounds.append({p: result[p] for p in self.players})
        parts_en = [f"{p} {stars_word(n).en} ({why.en})" for p, n, why in self.stars_due]
        parts_nl = [f"{p} {stars_word(n).nl} ({why.nl})" for p, n, why in self.stars_due]
        busted = [p for p in self.seat_order_from_red() if self.out[p] == "bust"]
        text = Text(f"Everyone is out: round {self.round_no} ends.", f"Iedereen ligt eruit: ronde {self.round_no} is voorbij.")
        if parts_en:
            text = text + Text(f"Stars: {names_list(parts_en)}.", f"Sterren: {names_list(parts_nl, 'nl')}.")
        if busted:
            text = text + Text(f"{names_list(busted)} busted and earn{'s' if len(busted) == 1 else ''} no stars.",
                               f"{names_list(busted, 'nl')} {'is' if len(busted) == 1 else 'zijn'} bust en "
                               f"{'krijgt' if len(busted) == 1 else 'krijgen'} geen sterren.")
        if self.stars_due:
            self.phase = "stars"
            first = self.stars_due[0][0]
            return text + Text(f"{first} places stars first.", f"{first} legt als eerste sterren.")
        return text + self._finish_round()

    def _stars(self, ev: Stars) -> Applied:
        require(self.phase == "stars", "stars are placed only at the end of a round",
                "sterren worden alleen aan het eind van een ronde gelegd")
        p, due, why = self.stars_due[0]
        require(ev.player == p, f"{p} places stars now, not {ev.player} (seat order from the red card)",
                f"{p} legt nu sterren, niet {ev.player} (zitvolgorde vanaf de rode kaart)")
        require(len(ev.cells) == due, f"{p} earned {stars_word(due).en} ({why.en}), not {len(ev.cells)}",
                f"{p} verdiende {stars_word(due).nl} ({why.nl}), niet {len(ev.cells)}")
        require(len(set(ev.cells)) == len(ev.cells), "each star goes on a different cell",
                "elke ster komt op een ander vak")
        wrong = [c for c in ev.cells if c not in self.buttons[p]]
        require(not wrong, f"stars go only on cells where {p} placed a button this round; "
                f"{cells_text(wrong).en} has none",
                f"sterren komen alleen op vakken waar {p} deze ronde een knoop legde; "
                f"{cells_text(wrong).nl} heeft er geen")
        # -- valid: change the state
        self.stars[p].update(ev.cells)
        self.buttons[p].difference_update(ev.cells)  # each star replaces a button
        self.stars_due.pop(0)
        text = Text(f"{p} places {stars_word(due).en} on {cells_text(ev.cells).en} ({why.en}): "
                    f"{stars_word(len(self.stars[p])).en} in all.",
                    f"{p} legt {stars_word(due).nl} op {cells_text(ev.cells).nl} ({why.nl}): "
                    f"{stars_word(len(self.stars[p])).nl} in totaal.")
        if self.stars_due:
            return Applied(text)
        text = text + self._finish_round()
        return Applied(text, frozenset({"game-over"} if self.is_over else set()))

    def _finish_round(self) -> Text:
        """All stars placed: buttons come off, the end is checked, else the next round starts."""
        self.buttons = {p: set() for p in self.players}
        self.phase = "over"
        lines = [p for p in self.players if has_line_of_five(self.stars[p])]
        many = [p for p in self.players if len(self.stars[p]) >= STARS_TO_END]
        if lines:
            top = max(len(self.stars[p]) for p in lines)
            winners = tuple(p for p in lines if len(self.stars[p]) == top)
            why = Text(f"{names_list(lines)} {'has' if len(lines) == 1 else 'have'} 5 stars in a line; "
                       f"most stars among them: {top}.",
                       f"{names_list(lines, 'nl')} {'heeft' if len(lines) == 1 else 'hebben'} 5 sterren op een rij; "
                       f"de meeste sterren onder hen: {top}.")
            self._outcome = Outcome("line-of-five", winners, why)
        elif many:
            top = max(len(s) for s in self.stars.values())
            winners = tuple(p for p in self.players if len(self.stars[p]) == top)
            why = Text(f"{names_list(many)} reached {STARS_TO_END} stars; most stars: {top}.",
                       f"{names_list(many, 'nl')} {'heeft' if len(many) == 1 else 'hebben'} {STARS_TO_END} "
                       f"sterren gehaald; de meeste sterren: {top}.")
            self._outcome = Outcome("twelve-stars", winners, why)
        if self._outcome is not None:
            w = self._outcome.winners
            return self._outcome.why + Text(
                f"The game is over: {names_list(list(w))} win{'s' if len(w) == 1 else ''}"
                f"{' (a shared win)' if len(w) > 1 else ''}.",
                f"Het spel is afgelopen: {names_list(list(w), 'nl')} "
                f"{'wint' if len(w) == 1 else 'winnen samen'}.")
        self.round_no += 1
        self._start_round()
        red = self.red_holder()
        return Text(f"Round {self.round_no}: the bonus cards pass clockwise; {red} holds red and starts.",
                    f"Ronde {self.round_no}: de bonuskaarten gaan met de klok mee door; {red} heeft rood "
                    f"en begint.")

    # -- what the table sees -----------------------------------------------------------------
    @property
    def outcome(self) -> Outcome | None:
        return self._outcome

    def scores(self) -> dict[str, int]:
        """Stars per player."""
        return {p: len(self.stars[p]) for p in self.players}

    def next_player(self) -> str | None:
        """Who must act: the player placing stars, the roller owing a button, else the active player."""
        if self._outcome is not None:
            return None
        if self.phase == "stars":
            return self.stars_due[0][0]
        return self.owes_place() or self.active

    def extra(self) -> dict[str, Any]:
        return {"stars": {p: [list(c) for c in sorted(self.stars[p])] for p in self.players}}

    def score_pad(self, lang: str = "en") -> list[list[str]]:
        """One row per finished round (stars earned, or bust), then the star totals."""
        rows = [["Ronde" if lang == "nl" else "Round", *self.players]]
        for i, result in enumerate(self.rounds, 1):
            rows.append([str(i), *(("bust" if result[p][0] == "bust" else f"+{result[p][1]}")
                                   for p in self.players)])
        rows.append(["Sterren" if lang == "nl" else "Stars", *(str(len(self.stars[p])) for p in self.players)])
        return rows

    def view(self) -> dict[str, Any]:
        """Everything the Buttons screen shows (see the module docstring for the keys)."""
        doc = self.summary()
        active = self.active if self.phase == "turn" else None
        roll = self.last_roll if self.phase == "turn" else None
        exact = self.bust_chance(active) if active else None
        doc.update({
            "round": self.round_no,
            "phase": "over" if self._outcome else self.phase,
            "players": list(self.players),
            "boards": {p: list(self.boards[p]) for p in self.players},
            "buttons": {p: [list(c) for c in sorted(self.buttons[p])] for p in self.players},
            "bonus": {p: [LETTER_NAMES[x] for x in self.bonus(p)] for p in self.players},
            "red_holder": self.red_holder(),
            "active": None if self._outcome else active,
            "in_round": self.in_round(),
            "out": dict(self.out),
            "dice": self.dice_in_play(),
            "last_roll": None if roll is None else {"player": self.roller, **roll.to_json()},
            "must_place": self.owes_place(),
            "placeable": {p: [list(c) for c in self.placeable(p)] for p in self.players},
            "legal": {p: [list(c) for c in self.legal_cells(p)] for p in self.players},
            "bust_odds": None if exact is None or self._outcome else
            {"player": active, "chance": float(exact), "exact": f"{exact.numerator}/{exact.denominator}"},
            "optout_stars": None if self._outcome else self.optout_stars(),
            "stars_due": [{"player": p, "stars": n, "why": {"en": why.en, "nl": why.nl}}
                          for p, n, why in self.stars_due],
            "rounds": [{p: {"result": r[p][0], "stars": r[p][1]} for p in self.players} for r in self.rounds],
            "explanation": None if self._last is None else {"en": self._last.explanation.en,
                                                            "nl": self._last.explanation.nl},
            "outcome": None if self._outcome is None else
            {"termination": self._outcome.termination, "why": {"en": self._outcome.why.en,
                                                               "nl": self._outcome.why.nl}},
        })
        return doc


GAME = Buttons
