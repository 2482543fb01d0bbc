"""Blasting Billy (999 Games 2022): give, claim or dump loot; at the end, anyone richer than Billy is shot.

Record events (shared/spec/game-records.md):

- ``{"type": "play", "player": "Ann", "card": "red-5", "to": "billy"}`` - optional, one per turn,
  ``to`` is ``billy``, ``own`` or ``box``. When given they must start with the first player and go
  clockwise, every card at most once, and stop when the game ends: after the player who draws the
  last card of the pile, every player has one more turn (60 cards minus those returned to the box
  for 2 or 3 players, minus 3 dealt per player, is the pile; the game has pile + players turns).
- ``{"type": "reveal", "rows": {"Billy": [...], "Ann": [...], ...}}`` - the end: every owner's
  cards in the order they were played. Only the order within a colour matters (that is what the
  table shows); recorded plays must appear in the same order at the front of the colour's row,
  and no more cards than the game's turns allow (so exactly the plays when every turn was recorded).

A player may not be called ``Billy``: the record uses that name for Billy's loot.

Scoring follows shared/rules/blasting-billy.md, rulings included: a dynamite first in its row
removes only itself (R1); "fewest cards" counts the cards left after dynamite (R2); Billy wins
only when every player's counted total (rows not shot) is 0 (R3), so a player who was not shot
wins with 0 points when only shot players have face-up points.

Explanations of ``play`` events keep hidden cards hidden: a card given to Billy, dumped, or
claimed face down (the first of its colour) is told by its colour only.

``next`` is the player whose turn it is; null when the game is over, and also once every turn
has been played and only the reveal is left (it belongs to everyone at the table).

``view()`` returns ``summary()`` plus:

- ``turn`` (turns recorded), ``turns_total``, ``pile`` (cards left in the draw pile by the
  recorded turns), ``revealed`` (bool), ``box`` (cards recorded as dumped);
- ``owners``: per owner (``Billy`` first, then the players) ``{"rows": [row, ...], "cards",
  "counted", "shot", "text": {"en", "nl"}}`` where a row is ``{"colour", "cards" (as revealed),
  "removed" (blown away by dynamite), "kept", "total", "shot" (bool), "text": {"en", "nl"}}``.
  Before the reveal the rows hold the recorded plays (Billy's and face-down cards included: the
  screen decides what it shows), nothing is shot yet, ``counted`` is 0 and the texts only count
  cards. ``cards`` counts the cards left after dynamite, ``counted`` the points of rows not shot,
  ``shot`` the shot colours;
- ``why``: the outcome's explanation ``{"en", "nl"}`` or null.

Teaching and input helpers: ``explain`` (an owner's dynamite, rows against Billy's and the sum),
``legal_events`` (the plays allowed now), ``turn_player``, ``pile``, ``standings``; module-level
``blast`` (one row's dynamite) and ``explain_comparison``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
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
from companion.games.cards_common import (
    card_list,
    check_card,
    colour_name,
    colour_of,
    player_object,
    short,
    times,
)

# -- constants ----------------------------------------------------------------------------------
COLOURS = ("red", "green", "yellow", "blue", "purple")
VALUES = range(0, 11)
DYNAMITE = "dynamite"
DECK: Counter[str] = Counter({f"{c}-{v}": 1 for c in COLOURS for v in VALUES})
DECK.update({f"{c}-{DYNAMITE}": 1 for c in COLOURS})
DECK_SIZE = sum(DECK.values())  # 60
BILLY = "Billy"
HAND = 3
LAST_HAND_TO_BOX = 2
REMOVED = {2: 12, 3: 6, 4: 0, 5: 0}  # cards returned unseen to the box before the deal
DESTINATIONS = ("billy", "own", "box")
TITLE = "Blasting Billy"


def card_value(card: str) -> int:
    """A card's value (dynamite is worth nothing)."""
    face = card.split("-", 1)[1]
    return int(face) if face.isdigit() else 0


def is_dynamite(card: str) -> bool:
    return card.endswith("-" + DYNAMITE)


def turns_in_game(players: int) -> int:
    """All turns of a game: the pile's draws, then one more turn each after the last card is drawn."""
    pile = DECK_SIZE - REMOVED[players] - HAND * players
    return pile + players


# -- events -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Play:
    """One turn: a player's card given to Billy, claimed or dumped into the box."""

    player: str
    card: str
    to: str

    @classmethod
    def parse(cls, event: dict[str, Any], players: tuple[str, ...]) -> Play:
        """Check the event's shape: a player at the table, a known card and where it went."""
        check_keys(event, {"player", "card", "to"})
        player = field_of(event, "player", str, "a player's name")
        require(player in players, f"{short(player)} is not at this table", f"{short(player)} speelt niet mee")
        card = check_card(field_of(event, "card", str, "a card name"), DECK, TITLE, "the card", "de kaart")
        to = field_of(event, "to", str, "billy, own or box")
        require(to in DESTINATIONS, f"'to' must be billy, own or box, not {short(to)}",
                f"'to' moet billy, own of box zijn, niet {short(to)}")
        return cls(player, card, to)

    def to_json(self) -> dict[str, Any]:
        return {"type": "play", "player": self.player, "card": self.card, "to": self.to}


@dataclass(frozen=True)
class Reveal:
    """The end: every owner's cards (Billy first) in the order they were played."""

    rows: tuple[tuple[str, tuple[str, ...]], ...]

    @classmethod
    def parse(cls, event: dict[str, Any], players: tuple[str, ...]) -> Reveal:
        """Check the event's shape: a list of known cards for Billy and for every player."""
        check_keys(event, {"rows"})
        owners = (BILLY, *players)
        rows = player_object(field_of(event, "rows", dict, "an object: Billy and each player -> cards"),
                             owners, "rows")
        return cls(tuple((owner, tuple(card_list(rows[owner], owner, DECK, TITLE))) for owner in owners))

    def to_json(self) -> dict[str, Any]:
        return {"type": "reveal", "rows": {owner: list(cards) for owner, cards in self.rows}}


# -- rules helpers ------------------------------------------------------------------------------
def blast(row: list[str] | tuple[str, ...]) -> tuple[list[str], list[str]]:
    """(kept, removed): each dynamite goes with the card directly before it (alone when it is first)."""
    kept: list[str] = []
    removed: list[str] = []
    for card in row:
        if is_dynamite(card):
            if kept:
                removed.append(kept.pop())
            removed.append(card)
        else:
            kept.append(card)
    return kept, removed


def colour_row(cards: list[str] | tuple[str, ...], colour: str) -> list[str]:
    """The cards of one colour, in the order they were played."""
    return [c for c in cards if colour_of(c) == colour]


@dataclass(frozen=True)
class Standing:
    """One owner's loot after the dynamite, and (for players) the rows Billy shoots."""

    rows: dict[str, list[str]]
    kept: dict[str, list[str]]
    removed: dict[str, list[str]]
    shot: tuple[str, ...]

    def total(self, colour: str) -> int:
        return sum(card_value(c) for c in self.kept[colour])

    def cards(self) -> int:
        """Cards left after dynamite (ruling R2: "fewest cards" counts these)."""
        return sum(len(k) for k in self.kept.values())

    def counted(self) -> int:
        """Points of the rows not shot."""
        return sum(self.total(c) for c in COLOURS if c not in self.shot)

    def face_up_cards(self) -> int:
        return sum(len(self.kept[c]) for c in COLOURS if c not in self.shot)

    def face_down_cards(self) -> int:
        return sum(len(self.kept[c]) for c in self.shot)


def standings(loot: dict[str, list[str]]) -> dict[str, Standing]:
    """Billy's and every player's rows after dynamite, with the players' shot colours."""
    base: dict[str, tuple[dict, dict, dict]] = {}
    for owner, cards in loot.items():
        rows = {c: colour_row(cards, c) for c in COLOURS}
        blasted = {c: blast(rows[c]) for c in COLOURS}
        base[owner] = (rows, {c: blasted[c][0] for c in COLOURS}, {c: blasted[c][1] for c in COLOURS})
    billy = Standing(*base[BILLY], shot=())
    out = {BILLY: billy}
    for owner, (rows, kept, removed) in base.items():
        if owner == BILLY:
            continue
        totals = {c: sum(card_value(x) for x in kept[c]) for c in COLOURS}
        shot = tuple(c for c in COLOURS if totals[c] > billy.total(c))
        out[owner] = Standing(rows, kept, removed, shot)
    return out


def explain_comparison(player: str, colour: str, mine: int, billys: int) -> Text:
    """One row against Billy's: "Ann's red 14 beats Billy's 9: Ann is shot"."""
    nl_colour = colour_name(colour, "nl")
    if mine > billys:
        return Text(f"{player}'s {colour} {mine} beats Billy's {billys}: {player} is shot",
                    f"{player} heeft {mine} in {nl_colour}, meer dan Billy's {billys}: {player} wordt neergeschoten")
    if mine == billys:
        return Text(f"{player}'s {colour} {mine} ties Billy's {billys}: safe",
                    f"{player} heeft {mine} in {nl_colour}, evenveel als Billy: veilig")
    return Text(f"{player}'s {colour} {mine} stays under Billy's {billys}: safe",
                f"{player} heeft {mine} in {nl_colour}, minder dan Billy's {billys}: veilig")


def explain_dynamite(owner: str, colour: str, row: list[str], removed: list[str]) -> Text:
    """What the dynamite did to one row: "Billy's red: the dynamite takes red-10 with it: 17 becomes 7"."""
    before = sum(card_value(c) for c in row)
    after = before - sum(card_value(c) for c in removed)
    nl_colour = colour_name(colour, "nl")
    others = [c for c in removed if not is_dynamite(c)]
    if not others:
        return Text(f"{owner}'s {colour}: the dynamite is first in the row and only removes itself",
                    f"{nl_colour} van {owner}: het dynamiet ligt vooraan en verdwijnt alleen zelf")
    gone = names_list(others)
    return Text(f"{owner}'s {colour}: the dynamite takes {gone} with it: {before} becomes {after}",
                f"{nl_colour} van {owner}: het dynamiet neemt {names_list(others, 'nl')} mee: "
                f"{before} wordt {after}")


# -- the game -----------------------------------------------------------------------------------
class BlastingBilly(Game):
    """Blasting Billy for 2-5 players: optional turn-by-turn plays, then the reveal and Billy's verdict."""

    name = "blasting-billy"
    title = Text(TITLE, TITLE)
    min_players = 2
    max_players = 5

    def __init__(self, players: list[str], options: dict[str, Any] | None = None):
        super().__init__(players, options)
        if BILLY in self.players:
            raise SetupError(Text("a player cannot be called Billy: the record uses that name for Billy's loot",
                                  "een speler kan niet Billy heten: die naam is voor de buit van Billy"))
        self.turns_total = turns_in_game(len(self.players))
        self._plays: list[Play] = []
        self._reveal: Reveal | None = None

    # -- parsing and checking events --------------------------------------------------------------
    def _apply(self, event: dict[str, Any]) -> Applied:
        kind = event.get("type")
        if kind == "play":
            return self._apply_play(self._parse_play(event))
        if kind == "reveal":
            return self._apply_reveal(self._parse_reveal(event))
        raise IllegalEvent(Text(f"Blasting Billy has no {short(kind)} event (play or reveal)",
                                f"Blasting Billy kent geen {short(kind)}-zet (play of reveal)"))

    def turn_player(self) -> str | None:
        """Whose turn it is by the recorded plays (clockwise from the first player); None after the last turn."""
        t = len(self._plays)
        return self.players[t % len(self.players)] if t < self.turns_total else None

    def legal_events(self) -> list[dict[str, Any]]:
        """The play events the record allows now: the turn player's card (any not played yet: the hand
        is not in the record) to Billy, to their own loot or into the box. Empty after the last turn."""
        player = self.turn_player()
        if player is None or self._reveal is not None:
            return []
        played = {p.card for p in self._plays}
        return [{"type": "play", "player": player, "card": card, "to": to}
                for card in DECK if card not in played for to in DESTINATIONS]

    def pile(self) -> int:
        """Cards left in the draw pile after the recorded turns."""
        return max(0, self.turns_total - len(self.players) - len(self._plays))

    def _parse_play(self, event: dict[str, Any]) -> Play:
        play = Play.parse(event, self.players)
        turn = self.turn_player()
        require(turn is not None,
                "every player has had the last turn after the pile ran out: reveal the cards",
                "iedereen is na de laatste kaart van de stapel nog één keer geweest: draai de kaarten om")
        require(play.player == turn, f"it is {turn}'s turn, not {play.player}'s",
                f"{turn} is aan de beurt, niet {play.player}")
        for i, earlier in enumerate(self._plays):
            require(earlier.card != play.card,
                    f"{play.card} was already played on turn {i + 1} (by {earlier.player})",
                    f"{play.card} is al gespeeld in beurt {i + 1} (door {earlier.player})")
        return play

    def _parse_reveal(self, event: dict[str, Any]) -> Reveal:
        reveal = Reveal.parse(event, self.players)
        owners = (BILLY, *self.players)
        loot = {owner: list(cards) for owner, cards in reveal.rows}
        seen: dict[str, list[str]] = {}
        for owner in owners:
            for card in loot[owner]:
                seen.setdefault(card, []).append(owner)
        for card, where in seen.items():
            owners_of = list(dict.fromkeys(where))
            require(len(where) == 1,
                    f"{card} is revealed {times(len(where))} ({names_list(owners_of)}): check the reading",
                    f"{card} ligt er {times(len(where), 'nl')} ({names_list(owners_of, 'nl')}): controleer de lezing")
        for i, play in enumerate(self._plays):
            require(play.to != "box" or play.card not in seen,
                    f"{play.card} went into the box on turn {i + 1}, but the reveal shows it with "
                    f"{names_list(seen.get(play.card, []))}",
                    f"{play.card} ging in beurt {i + 1} in de doos, maar ligt bij "
                    f"{names_list(seen.get(play.card, []), 'nl')}")
        n = len(self.players)
        boxed = sum(1 for p in self._plays if p.to == "box")
        on_table = sum(len(cards) for cards in loot.values())
        require(on_table <= self.turns_total - boxed,
                f"{on_table} cards are revealed, but a game of {n} players has only {self.turns_total} turns"
                + (f" and {boxed} cards went into the box" if boxed else ""),
                f"er liggen {on_table} kaarten, maar met {n} spelers zijn er maar {self.turns_total} beurten"
                + (f" en gingen er {boxed} kaarten in de doos" if boxed else ""))
        for k, player in enumerate(self.players):
            turns = len(range(k, self.turns_total, n))
            spent = sum(1 for p in self._plays if p.player == player and p.to != "own")
            spent_en = f", {spent} of them spent giving to Billy or the box" if spent else ""
            spent_nl = f", waarvan {spent} gebruikt voor Billy of de doos" if spent else ""
            require(len(loot[player]) <= turns - spent,
                    f"{player} shows {len(loot[player])} cards but has only {turns} turns in a game of {n} players"
                    + spent_en,
                    f"{player} heeft {len(loot[player])} kaarten maar krijgt maar {turns} beurten met {n} spelers"
                    + spent_nl)
        self._check_plays_against(loot)
        return reveal

    def _check_plays_against(self, loot: dict[str, list[str]]) -> None:
        """Recorded plays must lead each revealed colour row in the same order.

        When every turn is recorded this makes the reveal exactly the plays: the count check before
        allows no more cards than were given to Billy or claimed.
        """
        placed = self._placed()
        for owner, cards in placed.items():
            for colour in COLOURS:
                recorded = colour_row(cards, colour)
                shown = colour_row(loot[owner], colour)
                for pos, card in enumerate(recorded):
                    if pos >= len(shown) or shown[pos] != card:
                        found = f"{shown[pos]}" if pos < len(shown) else "nothing"
                        found_nl = f"{shown[pos]}" if pos < len(shown) else "niets"
                        raise IllegalEvent(Text(
                            f"the recorded plays put {card} in {owner}'s {colour} row as card {pos + 1}, "
                            f"but the reveal shows {found} there",
                            f"volgens de genoteerde beurten ligt {card} in de {colour_name(colour, 'nl')} rij "
                            f"van {owner} als kaart {pos + 1}, maar daar ligt {found_nl}"))

    # -- changing the state ---------------------------------------------------------------------
    def _apply_play(self, play: Play) -> Applied:
        colour = colour_of(play.card)
        nl_colour = colour_name(colour, "nl")
        if play.to == "billy":
            en, nl = f"{play.player} gives Billy a {colour} card.", f"{play.player} geeft Billy een {nl_colour} kaart."
        elif play.to == "box":
            en, nl = (f"{play.player} dumps a {colour} card in the box.",
                      f"{play.player} legt een {nl_colour} kaart in de doos.")
        elif any(p.player == play.player and p.to == "own" and colour_of(p.card) == colour for p in self._plays):
            en, nl = (f"{play.player} claims {play.card} face up.",
                      f"{play.player} legt {play.card} open in de eigen buit.")
        else:
            en, nl = (f"{play.player} claims a {colour} card face down: the first of that colour.",
                      f"{play.player} legt een {nl_colour} kaart gedekt in de eigen buit: de eerste van die kleur.")
        self._plays.append(play)
        signals: set[str] = set()
        t = len(self._plays)
        if t == self.turns_total:
            signals.add("round-end")
            en += " That was the last turn: everyone puts the last 2 hand cards in the box, then reveal."
            nl += " Dat was de laatste beurt: iedereen legt de laatste 2 handkaarten in de doos en draait om."
        elif self.pile() == 0 and t == self.turns_total - len(self.players):
            en += " The pile is empty: every player has one more turn."
            nl += " De stapel is op: iedereen is nog één keer aan de beurt."
        return Applied(Text(en, nl), frozenset(signals))

    def _apply_reveal(self, reveal: Reveal) -> Applied:
        self._reveal = reveal
        out = self.outcome
        return Applied(out.why if out else Text("", ""), frozenset({"game-over"}))

    # -- derived state ----------------------------------------------------------------------------
    def _placed(self) -> dict[str, list[str]]:
        """Each owner's cards by the recorded plays, in order."""
        loot: dict[str, list[str]] = {BILLY: [], **{p: [] for p in self.players}}
        for play in self._plays:
            if play.to == "billy":
                loot[BILLY].append(play.card)
            elif play.to == "own":
                loot[play.player].append(play.card)
        return loot

    def _loot(self) -> dict[str, list[str]]:
        return {o: list(c) for o, c in self._reveal.rows} if self._reveal else self._placed()

    def standings(self) -> dict[str, Standing]:
        """Every owner's rows after dynamite and shot colours (from the reveal, or the recorded plays)."""
        return standings(self._loot())

    @property
    def outcome(self) -> Outcome | None:
        if self._reveal is None:
            return None
        table = self.standings()
        players = self.players
        shot = [p for p in players if table[p].shot]
        counted = {p: table[p].counted() for p in players}
        if all(v == 0 for v in counted.values()):
            return Outcome("billy", (BILLY,), Text(
                "Nobody scores any points: the gang was too greedy and Billy takes all the loot.",
                "Niemand scoort punten: jullie waren te hebberig en Billy krijgt de hele buit."))
        all_shot = len(shot) == len(players)
        if all_shot:
            contenders = list(players)

            def key(p: str) -> tuple[int, ...]:
                return (-counted[p], table[p].face_up_cards(), table[p].face_down_cards())
        else:
            contenders = [p for p in players if not table[p].shot]

            def key(p: str) -> tuple[int, ...]:
                return (-counted[p], table[p].cards())
        best = min(key(p) for p in contenders)
        winners = tuple(p for p in contenders if key(p) == best)
        pts = counted[winners[0]]
        if all_shot:
            lead_en, lead_nl = "Everyone was shot, so only rows not shot count. ", \
                "Iedereen is neergeschoten, dus tellen alleen de open rijen. "
        elif shot:
            lead_en = f"{names_list(shot)} {'was' if len(shot) == 1 else 'were'} shot. "
            lead_nl = f"{names_list(shot, 'nl')} {'is' if len(shot) == 1 else 'zijn'} neergeschoten. "
        else:
            lead_en, lead_nl = "Nobody was shot. ", "Niemand is neergeschoten. "
        tied = [p for p in contenders if counted[p] == pts]
        tie_en = tie_nl = ""
        if len(tied) > 1 and len(winners) < len(tied):
            tie_en = f" (tie on points with {names_list([p for p in tied if p not in winners])}: fewer cards win)"
            tie_nl = f" (gelijk met {names_list([p for p in tied if p not in winners], 'nl')}: minder kaarten wint)"
        if len(winners) == 1:
            why = Text(f"{lead_en}{winners[0]} wins with {pts} points{tie_en}.",
                       f"{lead_nl}{winners[0]} wint met {pts} punten{tie_nl}.")
        else:
            why = Text(f"{lead_en}{names_list(winners)} share the win with {pts} points each.",
                       f"{lead_nl}{names_list(winners, 'nl')} winnen samen met elk {pts} punten.")
        return Outcome("all-shot" if all_shot else "reveal", winners, why)

    def scores(self) -> dict[str, int]:
        if self._reveal is None:
            return {p: 0 for p in self.players}
        table = self.standings()
        return {p: table[p].counted() for p in self.players}

    def shot(self) -> dict[str, list[str]]:
        """Per player, the colours Billy shoots (empty before the reveal)."""
        if self._reveal is None:
            return {p: [] for p in self.players}
        table = self.standings()
        return {p: list(table[p].shot) for p in self.players}

    def next_player(self) -> str | None:
        return None if self.is_over else self.turn_player()

    def extra(self) -> dict[str, Any]:
        return {"shot": self.shot()}

    def explain(self, owner: str) -> list[Text]:
        """Teaching: the dynamite in an owner's rows, then (players) each row against Billy's, then the sum."""
        table = self.standings()
        mine = table[owner]
        out = [explain_dynamite(owner, c, mine.rows[c], mine.removed[c]) for c in COLOURS if mine.removed[c]]
        if owner == BILLY:
            return out
        for colour in COLOURS:
            if mine.rows[colour] or table[BILLY].rows[colour]:
                out.append(explain_comparison(owner, colour, mine.total(colour), table[BILLY].total(colour)))
        out.append(self._player_line(owner, mine))
        return out

    def _player_line(self, player: str, mine: Standing) -> Text:
        if mine.shot:
            en_cols = names_list(list(mine.shot))
            nl_cols = names_list([colour_name(c, "nl") for c in mine.shot], "nl")
            up = mine.face_up_cards()
            return Text(f"{player} is shot ({en_cols}): {mine.counted()} points in {up} face-up "
                        f"card{'' if up == 1 else 's'}, which count only if everyone is shot",
                        f"{player} is neergeschoten ({nl_cols}): {mine.counted()} punten in {up} open "
                        f"kaart{'' if up == 1 else 'en'}, die alleen tellen als iedereen is neergeschoten")
        n = mine.cards()
        return Text(f"{player} is not shot: {mine.counted()} points in {n} card{'' if n == 1 else 's'}",
                    f"{player} is niet neergeschoten: {mine.counted()} punten in {n} kaart{'' if n == 1 else 'en'}")

    def score_pad(self, lang: str = "en") -> list[list[str]]:
        """After the reveal: each row's total after dynamite (shot rows marked), cards and points.

        Before it, only what the table shows: how many cards lie in each row.
        """
        nl = lang == "nl"
        revealed = self._reveal is not None
        first = ("Speler" if nl else "Player") if revealed else ("Kaarten tot nu" if nl else "Cards so far")
        header = [first, *(colour_name(c, lang) for c in COLOURS),
                  "Kaarten" if nl else "Cards", "Punten" if nl else "Points"]
        table = self.standings()
        rows = [header]
        mark = " neer" if nl else " shot"
        for owner in (BILLY, *self.players):
            st = table[owner]
            if revealed:
                cells = [f"{st.total(c)}{mark if c in st.shot else ''}" for c in COLOURS]
                rows.append([owner, *cells, str(st.cards()), "" if owner == BILLY else str(st.counted())])
            else:
                cells = [str(len(st.rows[c])) for c in COLOURS]
                rows.append([owner, *cells, str(sum(len(r) for r in st.rows.values())), ""])
        return rows

    def _row_text(self, owner: str, colour: str, table: dict[str, Standing]) -> Text:
        st = table[owner]
        if self._reveal is None:
            n = len(st.rows[colour])
            return Text(f"{owner}'s {colour}: {n} card{'' if n == 1 else 's'} so far",
                        f"{colour_name(colour, 'nl')} van {owner}: {n} kaart{'' if n == 1 else 'en'} tot nu")
        boom = explain_dynamite(owner, colour, st.rows[colour], st.removed[colour]) if st.removed[colour] else None
        if owner == BILLY:
            return boom or Text(f"Billy's {colour}: {st.total(colour)}",
                                f"{colour_name(colour, 'nl')} van Billy: {st.total(colour)}")
        text = explain_comparison(owner, colour, st.total(colour), table[BILLY].total(colour))
        return Text(f"{boom.en}; {text.en}", f"{boom.nl}; {text.nl}") if boom else text

    def view(self) -> dict[str, Any]:
        doc = self.summary()
        table = self.standings()
        revealed = self._reveal is not None
        owners: dict[str, Any] = {}
        for owner in (BILLY, *self.players):
            st = table[owner]
            shot = st.shot if revealed else ()
            rows = []
            for colour in COLOURS:
                if not st.rows[colour]:
                    continue
                text = self._row_text(owner, colour, table)
                rows.append({"colour": colour, "cards": list(st.rows[colour]), "removed": list(st.removed[colour]),
                             "kept": list(st.kept[colour]), "total": st.total(colour),
                             "shot": colour in shot, "text": {"en": text.en, "nl": text.nl}})
            held = sum(len(r) for r in st.rows.values())
            if not revealed:
                line = Text(f"{owner} {'holds' if owner == BILLY else 'has claimed'} {held} "
                            f"card{'' if held == 1 else 's'} so far",
                            f"{owner} heeft tot nu {held} kaart{'' if held == 1 else 'en'}")
            elif owner == BILLY:
                line = Text(f"Billy keeps {st.cards()} cards after the dynamite",
                            f"Billy houdt {st.cards()} kaarten na het dynamiet")
            else:
                line = self._player_line(owner, st)
            owners[owner] = {"rows": rows, "cards": st.cards(),
                             "counted": st.counted() if revealed and owner != BILLY else 0,
                             "shot": list(shot), "text": {"en": line.en, "nl": line.nl}}
        out = self.outcome
        doc.update({
            "turn": len(self._plays),
            "turns_total": self.turns_total,
            "pile": self.pile(),
            "revealed": revealed,
            "box": [p.card for p in self._plays if p.to == "box"],
            "owners": owners,
            "why": {"en": out.why.en, "nl": out.why.nl} if out else None,
        })
        return doc


GAME = BlastingBilly
