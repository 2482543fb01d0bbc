"""Nicht die Bohne! (Amigo 1999): 3 rounds of playing and taking cards, colour rows scored per round.

Record events (shared/spec/game-records.md):

- ``{"type": "phase", "played": {"Ann": "red-5", ...}, "takes": ["Bob", "Cy"]}`` - one phase.
  ``takes`` names whose card was taken, in taking order, one entry per player except the token
  holder: the token holder takes first, then the owner of the card just taken, and the last
  player named gets the token card. The token holder is therefore the one player missing from
  ``takes``; the engine checks it is the player who holds the bean token.
- ``{"type": "round", "collected": {"Ann": ["red-5", ...], ...}}`` - the end of a round.
  Without ``collected`` it is valid only when every phase of the round was recorded. With
  ``collected`` and no phases it enters a round read from the table (by the camera): the cards
  must be exactly the 60-card deck, each player holding as many cards as were dealt. With both,
  each player's collected cards must hold every card the recorded phases gave them.

There is no deal event: hands are unknown, so the engine checks what a record can show: one
card per player per phase, no card played more often in a round than the deck holds it, as many
phases as cards dealt, and the round's collections against the deck.

``next`` is the bean-token holder: the player who leads the next phase (after the last phase of
a round, the one who starts the next round). It is null when the game is over, and also while
the token holder is unknown: after a round entered from its collected cards without its last
phase, the record does not say who received the token; the next phase event then names the
holder (the player missing from its ``takes``).

``view()`` returns ``summary()`` plus:

- ``round`` (1-3, the round being played; 3 once over), ``rounds_total`` (3),
  ``phase`` (phases recorded in this round), ``phases_per_round`` (cards dealt per player),
  ``token`` (the token holder or null), ``round_complete`` (all phases recorded, round event due);
- ``last_phase``: null or ``{"holder", "played": {player: card}, "taking":
  [{"taker", "card", "from"}, ...]}`` - the last recorded phase in taking order;
- ``players``: per player ``{"rows": [row, ...], "round_score", "total"}`` for the cards collected
  so far in this round (from recorded phases), where a row is ``{"colour", "cards", "beans",
  "value", "text": {"en", "nl"}}``;
- ``rounds`` (as in the replay summary): each finished round's scores; ``rounds_detail``: per
  finished round ``{player: {"rows": [row, ...], "score": n}}``.

Teaching and input helpers: ``row_value`` / ``explain_row`` (one colour row), ``explain_rows``
(a player's rows), ``taking_choices`` (who takes next in a phase and from whom), ``taking_order``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from companion.core import (
    Applied,
    Game,
    IllegalEvent,
    Outcome,
    Text,
    check_keys,
    field_of,
    names_list,
    require,
)
from companion.games.cards_common import (
    NUMBER_EN,
    NUMBER_NL,
    card_list,
    check_card,
    colour_name,
    colour_of,
    player_object,
    short,
    times,
)

# -- constants ----------------------------------------------------------------------------------
COLOURS = ("green", "red", "yellow", "blue")
BEANS = range(1, 11)
ZERO, DOUBLE, PLUS_MINUS = "zero", "x2", "pm"
DECK: Counter[str] = Counter()
for _colour in COLOURS:
    for _bean in BEANS:
        DECK[f"{_colour}-{_bean}"] = 1
    DECK[f"{_colour}-{ZERO}"] = 1
    DECK[f"{_colour}-{DOUBLE}"] = 1
    DECK[f"{_colour}-{PLUS_MINUS}"] = 3
DECK_SIZE = sum(DECK.values())  # 60
DEAL = {3: 20, 4: 15, 5: 12, 6: 10}
ROUNDS = 3
TITLE = "Nicht die Bohne!"


def face_of(card: str) -> str:
    """The face of a checked card: a bean value ``"1"``..``"10"`` or ``zero``, ``x2``, ``pm``."""
    return card.split("-", 1)[1]


def bean_value(card: str) -> int:
    """The beans a card counts (0 for the special cards)."""
    face = face_of(card)
    return int(face) if face.isdigit() else 0


# -- events -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Phase:
    """One phase: each player's played card and whose card was taken, in taking order."""

    played: tuple[tuple[str, str], ...]
    takes: tuple[str, ...]

    @classmethod
    def parse(cls, event: dict[str, Any], players: tuple[str, ...]) -> Phase:
        """Check the event's shape: a known card per player and ``takes`` naming the others once each."""
        check_keys(event, {"played", "takes"})
        played = player_object(field_of(event, "played", dict, "an object: player -> card"), players, "played")
        for player in players:
            check_card(played[player], DECK, TITLE, f"{player}'s played card", f"de kaart van {player}")
        takes = field_of(event, "takes", list, "a list of players, in taking order")
        for owner in takes:
            require(isinstance(owner, str) and owner in players,
                    f"'takes' names {short(owner)}, who is not at this table",
                    f"'takes' noemt {short(owner)}, die niet meespeelt")
        others = len(players) - 1
        require(len(takes) == others and len(set(takes)) == others,
                f"'takes' must name {others} players, each once: every card but the token card is taken once",
                f"'takes' moet {others} spelers noemen, elk één keer: elke kaart behalve de fichekaart "
                f"wordt één keer genomen")
        return cls(tuple((p, played[p]) for p in players), tuple(takes))

    @property
    def holder(self) -> str:
        """The token holder: the only player whose card nobody takes before the end."""
        return next(p for p, _ in self.played if p not in self.takes)

    def taking(self) -> list[tuple[str, str, str]]:
        """(taker, card, from) in taking order; the last one is the token card going to the last player."""
        cards = dict(self.played)
        takers = [self.holder, *self.takes[:-1]]
        out = [(taker, cards[owner], owner) for taker, owner in zip(takers, self.takes, strict=True)]
        out.append((self.takes[-1], cards[self.holder], self.holder))
        return out

    def taken(self) -> dict[str, str]:
        """Each player's card taken in this phase."""
        return {taker: card for taker, card, _ in self.taking()}

    def to_json(self) -> dict[str, Any]:
        return {"type": "phase", "played": dict(self.played), "takes": list(self.takes)}


@dataclass(frozen=True)
class RoundEnd:
    """The end of a round, with each player's collected cards when they were read off the table."""

    collected: tuple[tuple[str, tuple[str, ...]], ...] | None

    @classmethod
    def parse(cls, event: dict[str, Any], players: tuple[str, ...]) -> RoundEnd:
        """Check the event's shape: no ``collected``, or a list of known cards for every player."""
        check_keys(event, {"collected"})
        if "collected" not in event:
            return cls(None)
        collected = player_object(field_of(event, "collected", dict, "an object: player -> cards"),
                                  players, "collected")
        return cls(tuple((p, tuple(card_list(collected[p], p, DECK, TITLE))) for p in players))

    def to_json(self) -> dict[str, Any]:
        if self.collected is None:
            return {"type": "round"}
        return {"type": "round", "collected": {p: list(cards) for p, cards in self.collected}}


# -- rules helpers ------------------------------------------------------------------------------
def row_value(cards: list[str] | tuple[str, ...]) -> int:
    """The points one colour row scores: beans summed, zero kills it, odd +/- negates, 2x doubles."""
    faces = [face_of(c) for c in cards]
    if ZERO in faces:
        return 0
    value = sum(bean_value(c) for c in cards)
    if faces.count(PLUS_MINUS) % 2:
        value = -value
    if DOUBLE in faces:
        value *= 2
    return value


def explain_row(colour: str, cards: list[str] | tuple[str, ...]) -> Text:
    """Why a row scores what it does: "blue: 17 in beans, one +/- makes it -17, 2x makes it -34"."""
    faces = [face_of(c) for c in cards]
    beans = sum(bean_value(c) for c in cards)
    en, nl = [f"{colour}:"], [f"{colour_name(colour, 'nl')}:"]
    if beans:
        en.append(f"{beans} in beans")
        nl.append(f"{beans} aan bonen")
    else:
        en.append("no beans")
        nl.append("geen bonen")
    if ZERO in faces:
        en.append("Nicht die Bohne makes it 0")
        nl.append("Nicht die Bohne maakt het 0")
        return Text(f"{en[0]} {', '.join(en[1:])}", f"{nl[0]} {', '.join(nl[1:])}")
    value = beans
    pm = faces.count(PLUS_MINUS)
    if pm:
        word_en, word_nl = NUMBER_EN.get(pm, str(pm)), NUMBER_NL.get(pm, str(pm))
        if pm % 2:
            value = -value
            en.append(f"{word_en} +/- make{'s' if pm == 1 else ''} it {value}")
            nl.append(f"{word_nl} +/- maakt het {value}" if pm == 1 else f"{word_nl} +/- maken het {value}")
        else:
            en.append(f"{word_en} +/- keep it {value}")
            nl.append(f"{word_nl} +/- houden het {value}")
    if DOUBLE in faces:
        value *= 2
        en.append(f"2x makes it {value}")
        nl.append(f"2x maakt het {value}")
    if len(en) == 2:
        en.append(f"scores {value}" if beans else "0")
        nl.append(f"telt {value}" if beans else "0")
    return Text(f"{en[0]} {', '.join(en[1:])}", f"{nl[0]} {', '.join(nl[1:])}")


def rows_of(cards: list[str] | tuple[str, ...]) -> dict[str, list[str]]:
    """A collection sorted into colour rows (colours without cards left out), in the deck's colour order."""
    rows: dict[str, list[str]] = {}
    for colour in COLOURS:
        row = [c for c in cards if colour_of(c) == colour]
        if row:
            rows[colour] = row
    return rows


def round_score(cards: list[str] | tuple[str, ...]) -> int:
    """A player's round score: the rows' values added (positive minus negative points)."""
    return _round_score(tuple(cards))


@lru_cache(maxsize=1024)
def _round_score(cards: tuple[str, ...]) -> int:
    # finished rounds are scored again for every screen refresh: remember them
    return sum(row_value(row) for row in rows_of(cards).values())


def rows_view(cards: list[str] | tuple[str, ...]) -> list[dict[str, Any]]:
    """The JSON rows of a collection for screens: cards, beans, value and the explanation."""
    out = []
    for colour, row in rows_of(cards).items():
        text = explain_row(colour, row)
        out.append({"colour": colour, "cards": list(row), "beans": sum(bean_value(c) for c in row),
                    "value": row_value(row), "text": {"en": text.en, "nl": text.nl}})
    return out


# -- the game -----------------------------------------------------------------------------------
class NichtDieBohne(Game):
    """Nicht die Bohne! for 3-6 players, scored from recorded phases or from collected cards."""

    name = "nicht-die-bohne"
    title = Text(TITLE, TITLE)
    min_players = 3
    max_players = 6

    def __init__(self, players: list[str], options: dict[str, Any] | None = None):
        super().__init__(players, options)
        self.deal = DEAL[len(self.players)]
        self._finished: list[dict[str, tuple[str, ...]]] = []  # each finished round's collections
        self._phases: list[Phase] = []  # the current round's recorded phases
        self._token: str | None = self.players[0]

    # -- parsing and checking events --------------------------------------------------------------
    def _apply(self, event: dict[str, Any]) -> Applied:
        kind = event.get("type")
        if kind == "phase":
            return self._apply_phase(self._parse_phase(event))
        if kind == "round":
            return self._apply_round(self._parse_round(event))
        raise IllegalEvent(Text(f"Nicht die Bohne has no {short(kind)} event (phase or round)",
                                f"Nicht die Bohne kent geen {short(kind)}-zet (phase of round)"))

    def _played_this_round(self) -> Counter[str]:
        return Counter(card for phase in self._phases for _, card in phase.played)

    def _parse_phase(self, event: dict[str, Any]) -> Phase:
        n = len(self._phases)
        round_no = len(self._finished) + 1
        require(n < self.deal,
                f"all {self.deal} phases of round {round_no} are recorded: the round event comes next",
                f"alle {self.deal} spelfasen van ronde {round_no} staan genoteerd: nu volgt de ronde-afsluiting")
        phase = Phase.parse(event, self.players)
        played = dict(phase.played)
        if self._token is not None:
            require(phase.holder == self._token,
                    f"{self._token} holds the bean token and takes first, so {self._token}'s card cannot "
                    f"be taken before the last player gets it: leave {self._token} out of 'takes'",
                    f"{self._token} heeft de bonenfiche en neemt eerst; de kaart van {self._token} gaat "
                    f"naar de laatste speler: laat {self._token} weg uit 'takes'")
        seen = self._played_this_round()
        here = Counter(played.values())
        for card, count in here.items():
            if count > DECK[card]:
                who = [p for p in self.players if played[p] == card]
                raise IllegalEvent(Text(
                    f"{card} is played by {names_list(who)}, but the deck has "
                    f"{'only one' if DECK[card] == 1 else f'only {DECK[card]}'}: check the reading",
                    f"{card} wordt gespeeld door {names_list(who, 'nl')}, maar zit maar {DECK[card]} keer "
                    f"in het spel: controleer de lezing"))
            if seen[card] + count > DECK[card]:
                earlier = [i + 1 for i, ph in enumerate(self._phases) if card in dict(ph.played).values()]
                where = names_list([str(i) for i in earlier])
                where_nl = names_list([str(i) for i in earlier], "nl")
                many = len(earlier) > 1
                raise IllegalEvent(Text(
                    f"{card} was already played in phase{'s' if many else ''} {where} of this round: "
                    f"the deck has it {'once' if DECK[card] == 1 else f'{DECK[card]} times'}",
                    f"{card} is deze ronde al gespeeld in spelfase{'n' if many else ''} {where_nl}: het zit "
                    f"{DECK[card]} keer in het spel"))
        return phase

    def _parse_round(self, event: dict[str, Any]) -> RoundEnd:
        end = RoundEnd.parse(event, self.players)
        n = len(self._phases)
        round_no = len(self._finished) + 1
        if end.collected is None:
            require(n == self.deal,
                    f"round {round_no} has {n} of {self.deal} phases recorded: give each player's "
                    f"collected cards ('collected') to end it",
                    f"van ronde {round_no} zijn {n} van de {self.deal} spelfasen genoteerd: geef de "
                    f"verzamelde kaarten van elke speler ('collected') om haar af te sluiten")
            return end
        hands = {p: list(cards) for p, cards in end.collected}
        self._check_deck(hands)
        for player in self.players:
            require(len(hands[player]) == self.deal,
                    f"{player} has {len(hands[player])} cards, but every player collects {self.deal} "
                    f"in a round of {len(self.players)} players",
                    f"{player} heeft {len(hands[player])} kaarten, maar met {len(self.players)} spelers "
                    f"verzamelt iedereen {self.deal} kaarten per ronde")
        so_far = self._collected_so_far()
        for player in self.players:
            lacking = Counter(so_far[player]) - Counter(hands[player])
            if lacking:
                card = sorted(lacking)[0]
                raise IllegalEvent(Text(
                    f"{player} took {card} in a recorded phase, but it is not among {player}'s collected cards",
                    f"{player} nam {card} in een genoteerde spelfase, maar die zit niet bij de verzamelde "
                    f"kaarten van {player}"))
        return end

    def _check_deck(self, hands: dict[str, list[str]]) -> None:
        """Every card of the deck exactly once (the +/- three times): name what is doubled or missing."""
        seen: Counter[str] = Counter()
        for cards in hands.values():
            seen.update(cards)
        problems_en, problems_nl = [], []
        for card in DECK:
            if seen[card] > DECK[card]:
                owners = [p for p in self.players if card in hands[p]]
                if DECK[card] == 1:
                    problems_en.append(f"{card} is there {times(seen[card])} ({names_list(owners)})")
                    problems_nl.append(f"{card} ligt er {times(seen[card], 'nl')} ({names_list(owners, 'nl')})")
                else:
                    problems_en.append(f"{card} is there {seen[card]} times, the deck has {DECK[card]} "
                                       f"({names_list(owners)})")
                    problems_nl.append(f"{card} ligt er {seen[card]} keer, het spel heeft er {DECK[card]} "
                                       f"({names_list(owners, 'nl')})")
        for card in DECK:
            if seen[card] < DECK[card]:
                if DECK[card] == 1:
                    problems_en.append(f"{card} is missing")
                    problems_nl.append(f"{card} ontbreekt")
                else:
                    problems_en.append(f"{card} is there {seen[card]} times, the deck has {DECK[card]}")
                    problems_nl.append(f"{card} ligt er {seen[card]} keer, het spel heeft er {DECK[card]}")
        if problems_en:
            more = len(problems_en) - 4
            tail_en = f" (and {more} more)" if more > 0 else ""
            tail_nl = f" (en nog {more})" if more > 0 else ""
            raise IllegalEvent(Text(
                "the collected cards are not the deck: " + "; ".join(problems_en[:4]) + tail_en
                + ": check the reading",
                "de verzamelde kaarten kloppen niet met het spel: " + "; ".join(problems_nl[:4]) + tail_nl
                + ": controleer de lezing"))

    # -- changing the state ---------------------------------------------------------------------
    def _apply_phase(self, phase: Phase) -> Applied:
        self._phases.append(phase)
        self._token = phase.takes[-1]
        steps_en, steps_nl = [], []
        for taker, card, owner in phase.taking()[:-1]:
            steps_en.append(f"{taker} took {owner}'s {card}")
            steps_nl.append(f"{taker} nam {card} van {owner}")
        last, card, holder = phase.taking()[-1]
        n = len(self._phases)
        en = (f"Phase {n}: {', '.join(steps_en)}; {last} gets {holder}'s token card {card} and the bean "
              f"token, and leads the next {'phase' if n < self.deal else 'round'}.")
        nl = (f"Spelfase {n}: {', '.join(steps_nl)}; {last} krijgt de fichekaart {card} van {holder} en de "
              f"bonenfiche, en begint de volgende {'spelfase' if n < self.deal else 'ronde'}.")
        return Applied(Text(en, nl))

    def _apply_round(self, end: RoundEnd) -> Applied:
        all_recorded = len(self._phases) == self.deal
        hands = dict(end.collected) if end.collected is not None else self._collected_so_far()
        self._finished.append({p: tuple(hands[p]) for p in self.players})
        self._phases = []
        if not all_recorded:
            self._token = None  # who got the token in the unrecorded last phase is not in the record
        scores = self.round_scores()[-1]
        listing = ", ".join(f"{p} {scores[p]}" for p in self.players)
        round_no = len(self._finished)
        en, nl = f"Round {round_no}: {listing}.", f"Ronde {round_no}: {listing}."
        signals = {"round-end"}
        out = self.outcome
        if out is not None:
            signals.add("game-over")
            en, nl = f"{en} {out.why.en}", f"{nl} {out.why.nl}"
        return Applied(Text(en, nl), frozenset(signals))

    # -- derived state ----------------------------------------------------------------------------
    def _collected_so_far(self) -> dict[str, list[str]]:
        """Each player's cards taken in this round's recorded phases."""
        out: dict[str, list[str]] = {p: [] for p in self.players}
        for phase in self._phases:
            for taker, card in phase.taken().items():
                out[taker].append(card)
        return out

    def round_scores(self) -> list[dict[str, int]]:
        """Each finished round's scores per player."""
        return [{p: round_score(hands[p]) for p in self.players} for hands in self._finished]

    def totals(self) -> dict[str, int]:
        """Total points per player over the finished rounds."""
        rounds = self.round_scores()
        return {p: sum(r[p] for r in rounds) for p in self.players}

    @property
    def outcome(self) -> Outcome | None:
        if len(self._finished) < ROUNDS:
            return None
        totals = self.totals()
        best = max(totals.values())
        winners = tuple(p for p in self.players if totals[p] == best)
        if len(winners) == 1:
            why = Text(f"{winners[0]} wins with {best} points after {ROUNDS} rounds.",
                       f"{winners[0]} wint met {best} punten na {ROUNDS} rondes.")
        else:
            why = Text(f"{names_list(winners)} share the win with {best} points each.",
                       f"{names_list(winners, 'nl')} winnen samen met elk {best} punten.")
        return Outcome("rounds", winners, why)

    def scores(self) -> dict[str, int]:
        return self.totals()

    def next_player(self) -> str | None:
        return None if self.is_over else self._token

    def extra(self) -> dict[str, Any]:
        return {"rounds": self.round_scores()}

    def taking_order(self) -> list[str]:
        """Who took in the last recorded phase, in order (teaching: the owner of a taken card takes next)."""
        return [taker for taker, _, _ in self._phases[-1].taking()] if self._phases else []

    def taking_choices(self, takes: list[str] | tuple[str, ...] = (), holder: str | None = None
                       ) -> tuple[str, list[str]]:
        """Input and teaching: in the coming phase, after ``takes`` so far, who takes next and whose cards
        they may take. After the others, the last player's only "choice" is the token holder's card.

        ``holder`` is needed only while the token holder is unknown (see ``next`` above).
        """
        holder = self._token if self._token is not None else holder
        require(holder in self.players, "say who holds the bean token", "zeg wie de bonenfiche heeft")
        seen = [holder, *takes]
        require(all(p in self.players for p in takes) and len(set(seen)) == len(seen),
                "the takes so far must be other players, each once",
                "wie er al genomen heeft moeten andere spelers zijn, elk één keer")
        if len(takes) == len(self.players) - 1:
            return takes[-1], [holder]
        taker = takes[-1] if takes else holder
        return taker, [p for p in self.players if p not in seen]

    def explain_rows(self, player: str, round_no: int | None = None) -> list[Text]:
        """Why each of a player's rows scores what it does, in a finished round (1-based) or this one."""
        if round_no is None:
            cards = self._collected_so_far()[player]
        else:
            cards = list(self._finished[round_no - 1][player])
        return [explain_row(colour, row) for colour, row in rows_of(cards).items()]

    def score_pad(self, lang: str = "en") -> list[list[str]]:
        nl = lang == "nl"
        header = ["Speler" if nl else "Player"]
        header += [f"{'Ronde' if nl else 'Round'} {i}" for i in range(1, ROUNDS + 1)]
        header.append("Totaal" if nl else "Total")
        rounds = self.round_scores()
        totals = self.totals()
        rows = [header]
        for p in self.players:
            cells = [str(r[p]) for r in rounds] + [""] * (ROUNDS - len(rounds))
            rows.append([p, *cells, str(totals[p])])
        return rows

    def view(self) -> dict[str, Any]:
        doc = self.summary()
        current = self._collected_so_far()
        last = None
        if self._phases:
            phase = self._phases[-1]
            last = {"holder": phase.holder, "played": dict(phase.played),
                    "taking": [{"taker": t, "card": c, "from": o} for t, c, o in phase.taking()]}
        totals = self.totals()
        doc.update({
            "round": min(len(self._finished) + 1, ROUNDS),
            "rounds_total": ROUNDS,
            "phase": len(self._phases),
            "phases_per_round": self.deal,
            "token": None if self.is_over else self._token,
            "round_complete": len(self._phases) == self.deal,
            "last_phase": last,
            "players": {p: {"rows": rows_view(current[p]), "round_score": round_score(current[p]),
                            "total": totals[p]} for p in self.players},
            "rounds_detail": [{p: {"rows": rows_view(hands[p]), "score": round_score(hands[p])}
                               for p in self.players} for hands in self._finished],
        })
        return doc


GAME = NichtDieBohne
