"""Bag of Butts: tokens drawn from a bag in three groups (shared/rules/bag-of-butts.md).

The state is the bag's specials, the run of turns without a reset, the scores and whose turn
it is; everything shown (butt value, what each group would give) is derived from it.

``view()`` keys, besides the replay summary: ``phase`` (``choose``: add a special or reset,
``draw``, ``score``, ``over``), ``active``, ``turn`` (1-based, counting extra turns),
``extra_turn``, ``butt_value`` (1 + V: what a player butt is worth this turn before gray
bonuses), ``bag`` (token -> count), ``specials_in_bag``, ``special_supply`` (token -> count),
``can_reset``, ``can_add``, ``final_stretch`` (someone has 28: the next reset ends the game),
``colours``, ``groups`` (after a draw: per group its tokens, ``scorable``, ``reason`` and the
``points`` every player would get), ``tiebreak`` (players and scores, once it starts).
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

# -- constants ------------------------------------------------------------------------------------
PLAYER_COLOURS = ("pink", "yellow", "blue", "green")
SPECIALS = ("black", "gray", "white", "khaki")
TOKENS = PLAYER_COLOURS + SPECIALS
SPECIAL_SUPPLY = Counter({"black": 2, "gray": 2, "white": 1, "khaki": 1})
BUTTS_PER_COLOUR_IN_BAG = 2
END_SCORE = 28

SPECIAL_NAMES = {
    "black": Text("black No Touchy butt", "zwarte 'raak me niet aan'-Butt"),
    "gray": Text("gray Bonus Point butt", "grijze Bonus-Butt"),
    "white": Text("white Extra Turn butt", "witte 'Extra beurt'-Butt"),
    "khaki": Text("khaki Catch Up butt", "kaki Joker-Butt"),
}
COLOUR_NL = {"pink": "roze", "yellow": "geel", "blue": "blauw", "green": "groen", "black": "zwart",
             "gray": "grijs", "white": "wit", "khaki": "kaki"}


def token_counts_text(counts: Counter, lang: str) -> str:
    parts = [f"{n} {COLOUR_NL[t] if lang == 'nl' else t}" for t, n in sorted(counts.items(), key=lambda x: TOKENS.index(x[0])) if n]
    return names_list(parts, lang) if parts else ("niets" if lang == "nl" else "nothing")


# -- events -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Reset:
    def to_json(self) -> dict[str, Any]:
        return {"type": "reset"}


@dataclass(frozen=True)
class Add:
    special: str

    def to_json(self) -> dict[str, Any]:
        return {"type": "add", "special": self.special}


@dataclass(frozen=True)
class Draw:
    groups: tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]

    def to_json(self) -> dict[str, Any]:
        return {"type": "draw", "groups": [list(g) for g in self.groups]}


@dataclass(frozen=True)
class Score:
    group: int  # 1-based

    def to_json(self) -> dict[str, Any]:
        return {"type": "score", "group": self.group}


def parse_event(event: dict[str, Any]) -> Reset | Add | Draw | Score:
    kind = event.get("type")
    if kind == "reset":
        check_keys(event, set())
        return Reset()
    if kind == "add":
        check_keys(event, {"special"})
        special = field_of(event, "special", str, "a special butt colour")
        require(special in SPECIALS, f"'{special}' is not a special butt; specials are {', '.join(SPECIALS)}",
                f"'{special}' is geen speciale Butt; speciale Butts zijn {', '.join(COLOUR_NL[s] for s in SPECIALS)}")
        return Add(special)
    if kind == "draw":
        check_keys(event, {"groups"})
        groups = field_of(event, "groups", list, "three lists of butt colours")
        require(len(groups) == 3, f"a draw has exactly three groups, not {len(groups)}",
                f"een trekking heeft precies drie groepen, niet {len(groups)}")
        out = []
        for n, g in enumerate(groups, 1):
            require(isinstance(g, list) and all(isinstance(t, str) for t in g),
                    f"group {n} must be a list of butt colours", f"groep {n} moet een lijst van kleuren zijn")
            require(len(g) > 0, f"group {n} is empty: no group may be empty",
                    f"groep {n} is leeg: geen groep mag leeg zijn")
            for t in g:
                require(t in TOKENS, f"group {n} holds '{t}', which is not a butt colour",
                        f"groep {n} bevat '{t}', geen kleur van een Butt")
            out.append(tuple(g))
        return Draw((out[0], out[1], out[2]))
    if kind == "score":
        check_keys(event, {"group"})
        group = field_of(event, "group", int, "the group number 1, 2 or 3")
        require(group in (1, 2, 3), f"there is no group {group}: choose 1, 2 or 3",
                f"er is geen groep {group}: kies 1, 2 of 3")
        return Score(group)
    raise IllegalEvent(Text(f"Bag of Butts has no event of type {kind!r}",
                            f"Bag of Butts kent geen zet van type {kind!r}"))


# -- the game -----------------------------------------------------------------------------------
class BagOfButts(Game):
    name = "bag-of-butts"
    title = Text("Bag of Butts", "Bag of Butts")
    min_players = 2
    max_players = 4
    option_keys = frozenset({"colours"})

    def __init__(self, players: list[str], options: dict[str, Any] | None = None):
        super().__init__(players, options)
        colours = self.options.get("colours")
        if colours is None:
            self.colours = dict(zip(self.players, PLAYER_COLOURS, strict=False))
        else:
            if not isinstance(colours, dict):
                raise SetupError("'colours' must map each player to a colour")
            for p, c in colours.items():
                if p not in self.players:
                    raise SetupError(f"'colours' names {p!r}, who is not a player")
                if c not in PLAYER_COLOURS:
                    raise SetupError(f"{p}'s colour {c!r} is not one of {', '.join(PLAYER_COLOURS)}")
            missing = [p for p in self.players if p not in colours]
            if missing:
                raise SetupError(f"'colours' gives no colour for {missing[0]}")
            if len(set(colours.values())) != len(colours):
                raise SetupError("two players have the same colour")
            self.colours = {p: colours[p] for p in self.players}
        self.owner = {c: p for p, c in self.colours.items()}
        # the state
        self.scores_main: dict[str, int] = dict.fromkeys(self.players, 0)
        self.tiebreak_players: tuple[str, ...] | None = None
        self.scores_tiebreak: dict[str, int] = {}
        self.bag_specials: Counter = Counter()
        self.run = 0  # completed turns since the last reset: V of the next turn that goes on
        self.active = self.players[0]
        self.phase = "draw"  # first turn: no choice
        self.choice_offered = False  # did this turn start with the add-or-reset choice?
        self.turn = 1
        self.extra_turn = False
        self.drawn: Draw | None = None
        self.value = 0  # V of the turn in progress, fixed once the turn's start is settled
        self.pad: list[dict[str, Any]] = []
        self._outcome: Outcome | None = None

    # -- derived ------------------------------------------------------------------------------
    @property
    def seated(self) -> tuple[str, ...]:
        """Who takes turns and scores: everyone, or only the tied players in the tiebreaker."""
        return self.tiebreak_players or self.players

    @property
    def points(self) -> dict[str, int]:
        return self.scores_tiebreak if self.tiebreak_players else self.scores_main

    @property
    def special_supply(self) -> Counter:
        return SPECIAL_SUPPLY - self.bag_specials

    def bag(self) -> Counter:
        bag = Counter(dict.fromkeys(PLAYER_COLOURS, BUTTS_PER_COLOUR_IN_BAG))
        bag.update(self.bag_specials)
        return bag

    def butt_value(self) -> int:
        """What one player butt is worth this turn before gray bonuses: 1 + V."""
        return 1 + (self.value if self.phase in ("draw", "score") else self.run)

    def final_stretch(self) -> bool:
        return self.tiebreak_players is None and max(self.scores_main.values()) >= END_SCORE

    def next_after(self, player: str) -> str:
        seats = self.seated
        return seats[(seats.index(player) + 1) % len(seats)]

    def fewest(self) -> list[str]:
        low = min(self.points[p] for p in self.seated)
        return [p for p in self.seated if self.points[p] == low]

    def group_verdict(self, tokens: tuple[str, ...]) -> tuple[bool, Text]:
        """Whether a drawn group may be scored, and why not."""
        if "black" in tokens:
            return False, Text("holds a black No Touchy butt and cannot be scored",
                               "bevat een zwarte 'raak me niet aan'-Butt en mag niet gescoord worden")
        if all(t in SPECIALS for t in tokens):
            return False, Text("holds only special butts and cannot be scored",
                               "bevat alleen speciale Butts en mag niet gescoord worden")
        return True, Text("", "")

    def group_points(self, tokens: tuple[str, ...]) -> dict[str, int]:
        """Points every seated player gets if this group is scored (1 + V + G per butt)."""
        per_butt = 1 + self.value + tokens.count("gray")
        butts = Counter(self.owner[t] for t in tokens if t in self.owner and self.owner[t] in self.seated)
        if "khaki" in tokens:
            butts.update(self.fewest())
        return {p: butts[p] * per_butt for p in self.seated}

    def automatic_reset(self, draw: Draw) -> bool:
        return all(any(t in SPECIALS for t in g) for g in draw.groups)

    # -- the contract ---------------------------------------------------------------------------
    @property
    def outcome(self) -> Outcome | None:
        return self._outcome

    def scores(self) -> dict[str, int]:
        return dict(self.scores_main)

    def next_player(self) -> str | None:
        return None if self._outcome else self.active

    def extra(self) -> dict[str, Any]:
        if self.tiebreak_players is None:
            return {}
        return {"tiebreak": {"players": list(self.tiebreak_players), "scores": dict(self.scores_tiebreak)}}

    # -- applying events ------------------------------------------------------------------------
    def _apply(self, event: dict[str, Any]) -> Applied:
        ev = parse_event(event)
        if isinstance(ev, Reset):
            return self._reset()
        if isinstance(ev, Add):
            return self._add(ev)
        if isinstance(ev, Draw):
            return self._draw(ev)
        return self._score(ev)

    def _not_now(self, what_en: str, what_nl: str) -> IllegalEvent:
        needs = {
            "choose": Text(f"{self.active} must first add a special butt or reset",
                           f"{self.active} moet eerst een speciale Butt toevoegen of een Herstart doen"),
            "draw": Text(f"{self.active} must draw the three groups now",
                         f"{self.active} moet nu de drie groepen trekken"),
            "score": Text(f"{self.active} must choose a group to score now",
                          f"{self.active} moet nu een groep kiezen om te scoren"),
        }[self.phase]
        return IllegalEvent(Text(f"no {what_en} now: {needs.en}", f"geen {what_nl} nu: {needs.nl}"))

    def _reset(self) -> Applied:
        if self.phase != "choose":
            if not self.choice_offered:
                raise IllegalEvent(self._no_choice_reason("reset", "Herstart"))
            raise self._not_now("reset", "Herstart")
        returned = sum(self.bag_specials.values())
        ends = self.tiebreak_players is not None or self.final_stretch()
        self.bag_specials = Counter()
        self.run = 0
        self.value = 0
        self._pad_row("reset", {})
        if ends:
            return self._end(Text(f"{self.active} resets", f"{self.active} doet een Herstart"), voluntary=True)
        self.phase = "draw"
        return Applied(Text(
            f"{self.active} resets: {returned} special butt{'s' if returned != 1 else ''} go back to the supply, "
            f"so each player butt is worth 1 point this turn.",
            f"{self.active} doet een Herstart: {returned} speciale Butt{'s' if returned != 1 else ''} terug naar "
            f"de voorraad, dus elke spelers-Butt is deze beurt 1 punt waard."), frozenset({"reset"}))

    def _no_choice_reason(self, en: str, nl: str) -> Text:
        if self.tiebreak_players is not None and self.run == 0 and not self.pad[-1]["tiebreak"]:
            return Text(f"no {en} on the first turn of the tiebreaker: the bag holds no specials",
                        f"geen {nl} in de eerste beurt van het extra spel: er zitten geen speciale Butts in de zak")
        if self.turn == 1:
            return Text(f"no {en} on the first turn: the bag holds no specials yet",
                        f"geen {nl} in de eerste beurt: er zitten nog geen speciale Butts in de zak")
        return Text(f"no {en} now: the turn after an automatic reset starts with a bag without specials",
                    f"geen {nl} nu: na een automatische Herstart begint de beurt zonder speciale Butts")

    def _add(self, ev: Add) -> Applied:
        if self.phase != "choose":
            if not self.choice_offered:
                raise IllegalEvent(self._no_choice_reason("special added", "speciale Butt toevoegen"))
            raise self._not_now("special added", "speciale Butt toevoegen")
        supply = self.special_supply
        require(sum(supply.values()) > 0,
                "the supply is empty: nothing is added; draw the groups (or reset)",
                "de voorraad is op: er komt niets bij; trek de groepen (of doe een Herstart)")
        require(supply[ev.special] > 0,
                f"there is no {ev.special} special left in the supply (it holds {token_counts_text(supply, 'en')})",
                f"er is geen {COLOUR_NL[ev.special]} speciale Butt meer in de voorraad "
                f"(die bevat {token_counts_text(supply, 'nl')})")
        self.bag_specials[ev.special] += 1
        self.value = self.run
        self.phase = "draw"
        v = 1 + self.value
        return Applied(Text(
            f"{self.active} adds a {SPECIAL_NAMES[ev.special].en}: each player butt is worth {v} points this turn.",
            f"{self.active} voegt een {SPECIAL_NAMES[ev.special].nl} toe: elke spelers-Butt is deze beurt "
            f"{v} punten waard."))

    def _draw(self, ev: Draw) -> Applied:
        if self.phase == "choose":
            if sum(self.special_supply.values()) > 0:
                raise self._not_now("draw", "trekking")
            self.value = self.run  # supply empty: nothing to add, but the value still rises (R3)
            self.phase = "draw"
        elif self.phase != "draw":
            raise self._not_now("draw", "trekking")
        drawn = Counter(t for g in ev.groups for t in g)
        bag = self.bag()
        if drawn != bag:
            diffs_en, diffs_nl = [], []
            for t in TOKENS:
                if drawn[t] != bag[t]:
                    diffs_en.append(f"the bag holds {bag[t]} {t}, the draw shows {drawn[t]}")
                    diffs_nl.append(f"de zak bevat {bag[t]} {COLOUR_NL[t]}, de trekking toont {drawn[t]}")
            raise IllegalEvent(Text("; ".join(diffs_en), "; ".join(diffs_nl)))
        sizes = "/".join(str(len(g)) for g in ev.groups)
        if self.automatic_reset(ev):
            returned = sum(self.bag_specials.values())
            ends = self.tiebreak_players is not None or self.final_stretch()
            self.bag_specials = Counter()
            self.run = 0
            self._pad_row("automatic reset", {})
            why = Text(
                f"{self.active} draws {sizes}: every group holds a special butt, so an automatic reset happens; "
                f"nobody scores and {returned} specials go back to the supply.",
                f"{self.active} trekt {sizes}: in elke groep zit een speciale Butt, dus volgt een automatische "
                f"Herstart; niemand scoort en {returned} speciale Butts gaan terug naar de voorraad.")
            if ends:
                return self._end(why, voluntary=False)
            self._next_turn(self.next_after(self.active), choice=False)
            return Applied(why, frozenset({"reset"}))
        self.drawn = ev
        self.phase = "score"
        blocked = [str(n) for n, g in enumerate(ev.groups, 1) if not self.group_verdict(g)[0]]
        note_en = f"; group {', '.join(blocked)} cannot be scored" if blocked else ""
        note_nl = f"; groep {', '.join(blocked)} mag niet gescoord worden" if blocked else ""
        return Applied(Text(f"{self.active} draws {sizes}{note_en}: choose a group to score.",
                            f"{self.active} trekt {sizes}{note_nl}: kies een groep om te scoren."))

    def _score(self, ev: Score) -> Applied:
        if self.phase != "score":
            raise self._not_now("scoring", "score")
        assert self.drawn is not None
        tokens = self.drawn.groups[ev.group - 1]
        ok, why = self.group_verdict(tokens)
        if not ok:
            raise IllegalEvent(Text(f"group {ev.group} {why.en}", f"groep {ev.group} {why.nl}"))
        gained = self.group_points(tokens)
        was_final = self.final_stretch()
        khaki_for = self.fewest() if "khaki" in tokens else []
        for p, n in gained.items():
            self.points[p] += n
        self.run += 1
        got = [f"{p} +{n}" for p, n in gained.items() if n]
        per_butt = 1 + self.value + tokens.count("gray")
        en = f"{self.active} scores group {ev.group}: " + (
            f"{', '.join(got)} ({per_butt} per butt)" if got else "nobody's butts are in it, nobody scores")
        nl = f"{self.active} scoort groep {ev.group}: " + (
            f"{', '.join(got)} ({per_butt} per Butt)" if got else "er zit geen Butt van een speler in, niemand scoort")
        if khaki_for:
            en += f"; the khaki butt counts for {names_list(khaki_for)} (fewest points)"
            nl += f"; de kaki Joker-Butt telt voor {names_list(khaki_for, 'nl')} (minste punten)"
        self._pad_row("score", gained, group=ev.group)
        signals = set()
        if "white" in tokens:
            en += f"; the white butt gives {self.active} an extra turn"
            nl += f"; de witte Butt geeft {self.active} een extra beurt"
            signals.add("extra-turn")
            self._next_turn(self.active, choice=True, extra=True)
        else:
            self._next_turn(self.next_after(self.active), choice=True)
        if self.final_stretch() and not was_final:
            leader = max(self.scores_main, key=lambda p: self.scores_main[p])
            en += f"; {leader} has {self.scores_main[leader]}: the game ends at the next reset"
            nl += f"; {leader} heeft {self.scores_main[leader]}: het spel eindigt bij de volgende Herstart"
        return Applied(Text(en + ".", nl + "."), frozenset(signals))

    def _next_turn(self, player: str, choice: bool, extra: bool = False) -> None:
        self.active = player
        self.turn += 1
        self.extra_turn = extra
        self.drawn = None
        self.value = 0
        self.choice_offered = choice
        self.phase = "choose" if choice else "draw"

    def _pad_row(self, kind: str, gained: dict[str, int], group: int | None = None) -> None:
        self.pad.append({"turn": self.turn, "player": self.active, "kind": kind, "value": 1 + self.value,
                         "gained": dict(gained), "totals": dict(self.points), "group": group,
                         "tiebreak": self.tiebreak_players is not None})

    def _end(self, why: Text, voluntary: bool) -> Applied:
        """A reset that ends the main game or the tiebreaker."""
        resetter = self.active
        table = self.points
        best = max(table[p] for p in self.seated)
        top = [p for p in self.seated if table[p] == best]
        if len(top) > 1 and self.tiebreak_players is None:
            # R6: who would have been next in the regular game starts the tiebreaker
            first = resetter if voluntary else self.next_after(resetter)
            while first not in top:
                first = self.next_after(first)
            self.tiebreak_players = tuple(p for p in self.players if p in top)
            self.scores_tiebreak = dict.fromkeys(self.tiebreak_players, 0)
            self.bag_specials = Counter()
            self.run = 0
            self._next_turn(first, choice=False)
            return Applied(why + Text(
                f"The game ends: {names_list(top)} tie with {best} points and play a tiebreaker until its "
                f"first reset; {first} starts.",
                f"Het spel eindigt: {names_list(top, 'nl')} staan gelijk met {best} punten en spelen een extra "
                f"spel tot de eerste Herstart; {first} begint."), frozenset({"reset", "round-end"}))
        tiebreak = self.tiebreak_players is not None
        if len(top) == 1:
            say = Text(f"{top[0]} wins with {best} points{' in the tiebreaker' if tiebreak else ''}.",
                       f"{top[0]} wint met {best} punten{' in het extra spel' if tiebreak else ''}.")
            term = "tiebreak" if tiebreak else "reset-after-28"
        else:
            say = Text(f"Still tied at {best} in the tiebreaker: {names_list(top)} share the win.",
                       f"Nog steeds gelijk met {best} in het extra spel: {names_list(top, 'nl')} winnen samen.")
            term = "shared"
        self._outcome = Outcome(term, tuple(top), say)
        self.phase = "over"
        return Applied(why + Text("The game ends.", "Het spel is afgelopen.") + say,
                       frozenset({"reset", "game-over"}))

    # -- what screens show ----------------------------------------------------------------------
    def groups_preview(self) -> list[dict[str, Any]]:
        """For a drawn set, per group: may it be scored, and what would every player get."""
        if self.drawn is None:
            return []
        out = []
        for n, g in enumerate(self.drawn.groups, 1):
            ok, why = self.group_verdict(g)
            out.append({"group": n, "tokens": list(g), "scorable": ok,
                        "reason": {"en": why.en, "nl": why.nl},
                        "points": self.group_points(g) if ok else dict.fromkeys(self.seated, 0),
                        "extra_turn": ok and "white" in g,
                        "khaki_for": self.fewest() if ok and "khaki" in g else []})
        return out

    def view(self) -> dict[str, Any]:
        doc = self.summary()
        doc.update({
            "phase": "over" if self._outcome else self.phase,
            "active": self.active,
            "turn": self.turn,
            "extra_turn": self.extra_turn,
            "butt_value": self.butt_value(),
            "bag": dict(self.bag()),
            "specials_in_bag": dict(self.bag_specials),
            "special_supply": dict(self.special_supply),
            "can_reset": self.phase == "choose" and not self._outcome,
            "can_add": self.phase == "choose" and sum(self.special_supply.values()) > 0 and not self._outcome,
            "final_stretch": self.final_stretch(),
            "colours": dict(self.colours),
            "groups": self.groups_preview(),
            "points": dict(self.points),
        })
        return doc

    def score_pad(self, lang: str = "en") -> list[list[str]]:
        nl = lang == "nl"
        head = ["Beurt" if nl else "Turn", "Waarde" if nl else "Value", *self.players, ""]
        rows = [head]
        for r in self.pad:
            if r["kind"] == "score":
                cells = [str(r["totals"].get(p, "")) if r["gained"].get(p) else ("X" if p in r["totals"] else "")
                         for p in self.players]
                note = f"{r['player']}: {'groep' if nl else 'group'} {r['group']}"
            else:
                cells = ["" for _ in self.players]
                label = {"reset": ("reset", "Herstart"), "automatic reset": ("automatic reset", "automatische Herstart")}
                note = f"{r['player']}: {label[r['kind']][1 if nl else 0]}"
            if r["tiebreak"]:
                note += " (extra spel)" if nl else " (tiebreaker)"
            rows.append([str(r["turn"]), str(r["value"]), *cells, note])
        rows.append(["", "", *[str(self.scores_main[p]) for p in self.players],
                     "totaal" if nl else "total"])
        return rows


GAME = BagOfButts
