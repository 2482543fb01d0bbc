"""What the live table shows and offers for each game, read from the engine's ``view()``.

``state_lines(view, lang)`` words the snapshot the way the paper pad and the rules ask of players
(the butt value, the bag, each group's points, ...). ``choices(view, players, lang)`` lists the
touch choices besides Confirm as (label, event) pairs. Both only read the view: every number
comes from the engine. Games whose engine offers no known view keys get a plain key/value list.
"""

from __future__ import annotations

from typing import Any

from ui.i18n import piece_name, tr

SUMMARY_KEYS = {"game", "scores", "over", "winners", "next"}


def words(value: Any, lang: str) -> str:
    """A view value as short words: lists joined, dicts as 'key value', piece names translated."""
    if isinstance(value, bool):
        return ("ja" if value else "nee") if lang == "nl" else ("yes" if value else "no")
    if isinstance(value, str):
        return piece_name(value, lang)
    if isinstance(value, list | tuple):
        return ", ".join(words(v, lang) for v in value) or "-"
    if isinstance(value, dict):
        return "; ".join(f"{k}: {words(v, lang)}" for k, v in value.items()) or "-"
    return str(value)


def counts(tokens: dict[str, int], lang: str) -> str:
    """{'gray': 2, 'white': 1} -> '2 gray Bonus, 1 white Extra turn' ('none' when empty)."""
    parts = [f"{n} {piece_name(t, lang)}" for t, n in tokens.items() if n]
    return ", ".join(parts) if parts else ("geen" if lang == "nl" else "none")


def _bag_of_butts(view: dict[str, Any], lang: str) -> list[str]:
    nl = lang == "nl"
    lines = [(f"Beurt {view['turn']}: een kontje is {view['butt_value']} waard (+1 per grijze in de groep)" if nl
              else f"Turn {view['turn']}: a butt is worth {view['butt_value']} (+1 per gray in the group)")]
    lines.append(("Speciaal in de zak: " if nl else "Specials in the bag: ") + counts(view["specials_in_bag"], lang))
    lines.append(("Voorraad: " if nl else "Supply: ") + counts(view["special_supply"], lang))
    if view.get("extra_turn"):
        lines.append("Extra beurt!" if nl else "Extra turn!")
    if view.get("final_stretch"):
        lines.append("Iemand heeft 28: de volgende reset beëindigt het spel." if nl
                     else "Someone has 28: the next reset ends the game.")
    if view.get("tiebreak"):
        lines.append(("Extra spel: " if nl else "Tiebreaker: ") + words(view["tiebreak"].get("players", []), lang))
    for g in view.get("groups", []):
        tokens = ", ".join(piece_name(t, lang) for t in g["tokens"])
        if g["scorable"]:
            pts = ", ".join(f"{p} +{n}" for p, n in g["points"].items())
            lines.append(f"[b]{tr('group', lang, n=g['group'])}[/b]: {tokens} -> {pts}")
        else:
            lines.append(f"[b]{tr('group', lang, n=g['group'])}[/b]: {tokens} -> "
                         f"[color=ff7766]{g['reason'][lang if lang in g['reason'] else 'en']}[/color]")
    return lines


def _buttons(view: dict[str, Any], lang: str) -> list[str]:
    nl = lang == "nl"
    dice = view["dice"]
    lines = [(f"Ronde {view['round']}; rode kaart: {view['red_holder']}; in het spel: {dice['black']} zwarte "
              f"dobbelstenen met witte ogen" if nl else
              f"Round {view['round']}; red card: {view['red_holder']}; in play: {dice['black']} black "
              f"white-pip dice")]
    roll = view.get("last_roll")
    if roll:
        lines.append((f"Worp van {roll['player']}: wit {roll['white']}, goud {roll['gold']}, zwart "
                      if nl else f"{roll['player']} rolled: white {roll['white']}, gold {roll['gold']}, black ")
                     + (", ".join(str(b) for b in roll["black"]) or "-"))
    if view.get("must_place"):
        lines.append(f"{view['must_place']} " + ("moet een knoop leggen" if nl else "must place a button"))
    odds = view.get("bust_odds")
    if odds:
        lines.append((f"Kans op pech als {odds['player']} gooit: " if nl else f"Bust chance if {odds['player']} rolls: ")
                     + f"{odds['chance']:.0%} ({odds['exact']})")
    if view.get("optout_stars") is not None and view.get("active"):
        lines.append(f"{view['active']} kan stoppen voor {view['optout_stars']} ster(ren)" if nl
                      else f"{view['active']} can opt out for {view['optout_stars']} star(s)")
    for p, how in view.get("out", {}).items():
        word = {"optout": ("opted out", "gestopt"), "bust": ("bust", "pech")}.get(how, (how, how))[nl]
        lines.append(f"{p}: {word}")
    for due in view.get("stars_due", []):
        lines.append(f"{due['player']}: {due['stars']} ster(ren) te leggen ({due['why']['nl']})" if nl
                      else f"{due['player']}: {due['stars']} star(s) to place ({due['why']['en']})")
    for p, colours in view.get("bonus", {}).items():
        lines.append(f"{p}: bonus " + ", ".join(piece_name(c, lang) for c in colours))
    return lines


def _text(pair: Any, lang: str) -> str:
    return pair.get(lang, pair.get("en", "")) if isinstance(pair, dict) else str(pair)


def _nicht_die_bohne(view: dict[str, Any], lang: str) -> list[str]:
    nl = lang == "nl"
    lines = [(f"Ronde {view['round']} van {view['rounds_total']}, fase {view['phase']} van "
              f"{view['phases_per_round']}; bonenfiche: {view['token'] or '?'}" if nl else
              f"Round {view['round']} of {view['rounds_total']}, phase {view['phase']} of "
              f"{view['phases_per_round']}; bean token: {view['token'] or '?'}")]
    last = view.get("last_phase")
    if last:
        taken = "; ".join(f"{t['taker']} <- {t['card']} ({t['from']})" for t in last["taking"])
        lines.append(("Vorige fase: " if nl else "Last phase: ") + taken)
    if view.get("round_complete"):
        lines.append("Alle fases gespeeld: einde van de ronde." if nl else "Every phase played: end the round.")
    for p, doc in view.get("players", {}).items():
        rows = ", ".join(_text(r["text"], lang) for r in doc["rows"]) or "-"
        lines.append(f"[b]{p}[/b] {doc['round_score']:+d}: {rows}")
    for n, scores in enumerate(view.get("rounds", []), 1):
        lines.append(("Ronde" if nl else "Round") + f" {n}: " + ", ".join(f"{p} {v:+d}" for p, v in scores.items()))
    return lines


def _blasting_billy(view: dict[str, Any], lang: str) -> list[str]:
    nl = lang == "nl"
    if not view.get("revealed"):
        return [(f"Beurt {view['turn']} van {view['turns_total']}, trekstapel {view['pile']}. Leg aan het eind "
                 f"elke buit als rij onder de camera: Billy eerst, dan de spelers in zitvolgorde (of één "
                 f"buit tegelijk)." if nl else
                 f"Turn {view['turn']} of {view['turns_total']}, draw pile {view['pile']}. At the end lay each "
                 f"loot as a row under the camera: Billy first, then the players in seat order (or one loot "
                 f"at a time).")]
    lines = []
    for owner, doc in view.get("owners", {}).items():
        lines.append(f"[b]{owner}[/b]: " + _text(doc.get("text", ""), lang))
        for row in doc["rows"]:
            text = _text(row["text"], lang)
            lines.append("  " + (f"[color=ff7766]{text}[/color]" if row.get("shot") else text))
    return lines  # the outcome's why is shown with the winner


def state_lines(view: dict[str, Any], lang: str) -> str:
    """The game's own state in words, under the scores."""
    if view.get("game") == "bag-of-butts" and "butt_value" in view:
        return "\n".join(_bag_of_butts(view, lang))
    if view.get("game") == "buttons" and "dice" in view:
        return "\n".join(_buttons(view, lang))
    if view.get("game") == "nicht-die-bohne" and "phases_per_round" in view:
        return "\n".join(_nicht_die_bohne(view, lang))
    if view.get("game") == "blasting-billy" and "owners" in view:
        return "\n".join(_blasting_billy(view, lang))
    return "\n".join(f"{k}: {words(v, lang)}" for k, v in view.items() if k not in SUMMARY_KEYS)


def bag_of_butts_choices(view: dict[str, Any], lang: str) -> list[tuple[str, dict[str, Any]]]:
    """Add a special / reset at the start of a turn; after a draw, the groups that may be scored."""
    out: list[tuple[str, dict[str, Any]]] = []
    if view.get("phase") == "choose":
        if view.get("can_add"):
            for special, n in view["special_supply"].items():
                if n:
                    out.append((tr("add_special", lang, colour=piece_name(special, lang)),
                                {"type": "add", "special": special}))
        if view.get("can_reset"):
            out.append((tr("voluntary_reset", lang), {"type": "reset"}))
    elif view.get("phase") == "score":
        for g in view.get("groups", []):
            if g["scorable"]:
                gains = ", ".join(f"{p} +{n}" for p, n in g["points"].items() if n)
                text = tr("score_group", lang, n=g["group"]) + (f"\n{gains}" if gains else "")
                out.append((text, {"type": "score", "group": g["group"]}))
    return out


def buttons_choices(view: dict[str, Any], lang: str) -> list[tuple[str, dict[str, Any]]]:
    """Buttons: every cell the last roll lets each player use, and the active player's opt-out."""
    out: list[tuple[str, dict[str, Any]]] = []
    if view.get("phase") != "turn":
        return out
    for p, cells in view.get("placeable", {}).items():
        for r, c in cells:
            out.append((tr("place_at", lang, name=p, row=r, col=c), {"type": "place", "player": p, "row": r, "col": c}))
    if view.get("active") and view.get("optout_stars") is not None and not view.get("must_place"):
        out.append((tr("opt_out", lang, name=view["active"]), {"type": "optout", "player": view["active"]}))
    return out


def taking_choices(game: Any, takes: list[str], lang: str, holder: str | None = None) -> list[tuple[str, str]]:
    """Nicht die Bohne!: who takes next and from whom, from the engine's ``taking_choices``;
    each (label, player whose card is taken). Empty when the taking order is complete or when
    the token holder is unknown and not given (the screen asks for it first)."""
    if len(takes) >= len(game.players) - 1 or not hasattr(game, "taking_choices"):
        return []
    try:
        taker, sources = game.taking_choices(list(takes), holder=holder)
    except Exception:  # the token holder is unknown
        return []
    return [(tr("takes_from", lang, taker=taker, name=p), p) for p in sources]


def confirm_wanted(view: dict[str, Any]) -> bool:
    """Does the game wait for a camera reading now (a draw, a roll, a phase, the reveal)?"""
    if view.get("over"):
        return False
    if view.get("game") == "bag-of-butts" and "phase" in view:
        return view["phase"] == "draw" or (view["phase"] == "choose" and not view.get("can_add"))
    if view.get("game") == "nicht-die-bohne" and "round_complete" in view:
        return not view["round_complete"]
    if view.get("game") == "blasting-billy" and "revealed" in view:
        return not view["revealed"]
    if view.get("game") == "buttons" and "phase" in view:
        return view["phase"] == "turn" and not view.get("must_place") and bool(view.get("active"))
    return True


def demo_scene(view: dict[str, Any], rng: Any) -> dict[str, Any] | None:
    """What the demo table should show next for this game's state (renderer arguments), or None
    to keep the picture: the bag's butts drawn into three groups when a draw is due (Bag of
    Butts), the dice in play when a roll is due (Buttons), a card per player when a phase is due
    (Nicht die Bohne!), every owner's loot when the reveal is due (Blasting Billy)."""
    if not confirm_wanted(view):
        return None
    if view.get("game") == "bag-of-butts" and "bag" in view:
        colours = [t for t, n in view["bag"].items() for _ in range(n)]
        rng.shuffle(colours)
        return {"colours": colours}
    if view.get("game") == "buttons" and "dice" in view:
        return {"kinds": [("white", "gold"), ("black", "gold")] + [("black", "white")] * view["dice"]["black"]}
    if view.get("game") == "nicht-die-bohne" and "players" in view:
        return _phase_scene(view, rng)
    if view.get("game") == "blasting-billy" and "owners" in view:
        return _reveal_scene(view, rng)
    return {}


def _deck(game: str) -> list[tuple[str, Any]]:
    """A card game's whole deck as (colour, value) pairs (Nicht die Bohne has three +/- a colour)."""
    from ui.readings import CARD_COLOURS, CARD_VALUES

    return [(c, v) for c in CARD_COLOURS[game] for v in CARD_VALUES[game] for _ in range(3 if v == "pm" else 1)]


def _unseen(game: str, seen: list[str], rng: Any) -> list[tuple[str, Any]]:
    """The deck without the cards already on the table, shuffled."""
    left = _deck(game)
    for card in seen:
        for i, (c, v) in enumerate(left):
            if f"{c}-{v}" == card:
                del left[i]
                break
    rng.shuffle(left)
    return left


def _phase_scene(view: dict[str, Any], rng: Any) -> dict[str, Any]:
    """Nicht die Bohne!: one card per player in a row, from the cards not yet played this round."""
    seen = [c for p in view["players"].values() for row in p.get("rows", []) for c in row.get("cards", [])]
    left = _unseen("nicht-die-bohne", seen, rng)
    return {"game": "nicht-die-bohne", "layout": [left[:len(view["players"])]]}


def _reveal_scene(view: dict[str, Any], rng: Any) -> dict[str, Any]:
    """Blasting Billy: the loot of Billy and of each player as a row, Billy first, as the game ends."""
    owners = list(view["owners"])
    recorded = {o: [c for row in view["owners"][o].get("rows", []) for c in row.get("cards", [])] for o in owners}
    left = _unseen("blasting-billy", [c for cards in recorded.values() for c in cards], rng)
    rows = []
    for owner in owners:
        extra = [left.pop() for _ in range(min(len(left), rng.randint(2, 4)))]
        rows.append([tuple(c.split("-", 1)) for c in recorded[owner]] + extra)
    return {"game": "blasting-billy", "layout": [
        [(c, int(v) if str(v).isdigit() else v) for c, v in row] for row in rows]}
