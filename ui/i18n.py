"""Every string the touch screen shows, in English and Dutch, in one table.

``tr(key, lang, **fields)`` looks a string up and fills in ``{fields}``. A missing key shows the key
itself, so a forgotten translation is visible on screen instead of crashing the table.
"""

from __future__ import annotations

LANGUAGES = ("en", "nl")

STRINGS: dict[str, tuple[str, str]] = {
    # home
    "app_title": ("Table Companion", "Tafelmaatje"),
    "new_game": ("New game", "Nieuw spel"),
    "resume": ("Resume", "Verder spelen"),
    "resume_offer": ("An unfinished game of {game} ({players}) is waiting.",
                     "Er wacht een onafgemaakt spel {game} ({players})."),
    "past_games": ("Past games", "Eerdere spellen"),
    "settings": ("Settings", "Instellingen"),
    "rules": ("Rules", "Regels"),
    "language": ("Nederlands", "English"),
    "demo_note": ("No camera found: playing on the demo table.",
                  "Geen camera gevonden: je speelt aan de demotafel."),
    "not_installed": ("{game} is not installed in this companion yet.",
                      "{game} zit nog niet in dit tafelmaatje."),
    # players
    "players": ("Players", "Spelers"),
    "player_n": ("Player {n}", "Speler {n}"),
    "add_player": ("+ player", "+ speler"),
    "remove_player": ("- player", "- speler"),
    "start": ("Start", "Start"),
    "back": ("Back", "Terug"),
    "colour": ("Colour", "Kleur"),
    "read_board": ("Read board", "Bord lezen"),
    "reading_board": ("Reading the board under the camera...", "Het bord onder de camera wordt gelezen..."),
    "first_player_note": ("The first player starts; seats go clockwise.",
                          "De eerste speler begint; de plaatsen gaan met de klok mee."),
    # table
    "confirm": ("Confirm", "Bevestig"),
    "undo": ("Undo", "Ongedaan"),
    "redo": ("Redo", "Opnieuw"),
    "pad": ("Score pad", "Scoreblok"),
    "home": ("Home", "Start"),
    "next": ("Next: {name}", "Aan de beurt: {name}"),
    "game_over": ("Game over. Winner: {names}", "Spel voorbij. Winnaar: {names}"),
    "billy_wins": ("Game over: Billy wins, nobody scored.", "Spel voorbij: Billy wint, niemand scoorde."),
    "reading": ("Reading: {text}", "Gelezen: {text}"),
    "nothing_read": ("Nothing read yet: point the camera at the table or add pieces by hand.",
                     "Nog niets gelezen: richt de camera op de tafel of voeg stukken met de hand toe."),
    "refused": ("Not recorded: {why}", "Niet genoteerd: {why}"),
    "saved": ("Saved.", "Opgeslagen."),
    "took_back": ("Took back the last event.", "Laatste zet teruggenomen."),
    "nothing_undo": ("Nothing to take back.", "Niets om terug te nemen."),
    "nothing_redo": ("Nothing to put back.", "Niets om terug te zetten."),
    "add_piece": ("+ piece", "+ stuk"),
    "clear": ("Clear", "Wissen"),
    "remove": ("Remove", "Weghalen"),
    "cancel": ("Cancel", "Annuleren"),
    "correct_piece": ("Correct this piece", "Verbeter dit stuk"),
    "camera_error": ("Camera: {why}", "Camera: {why}"),
    "vision_error": ("Reading failed: {why}", "Lezen mislukt: {why}"),
    "no_vision": ("No reader for {kind} is installed: enter the pieces by hand.",
                  "Geen lezer voor {kind} geïnstalleerd: voer de stukken met de hand in."),
    "store_error": ("Score pad: {why}", "Scoreblok: {why}"),
    "choose": ("Your choice", "Jouw keuze"),
    "group": ("Group {n}", "Groep {n}"),
    "score_group": ("Score group {n}", "Groep {n} scoren"),
    "add_special": ("Add {colour}", "{colour} erbij"),
    "voluntary_reset": ("Reset the bag", "Zak resetten"),
    "draw_from_reading": ("Confirm the draw", "Trekking bevestigen"),
    "roll_from_reading": ("Confirm the roll", "Worp bevestigen"),
    "opt_out": ("{name} opts out", "{name} stopt"),
    "place_at": ("{name}: row {row}, col {col}", "{name}: rij {row}, kolom {col}"),
    "stars_button": ("Stars for {name}", "Sterren voor {name}"),
    "stars_for": ("{name}: tap {n} of your button cells for the stars",
                  "{name}: tik {n} van je knoopvakjes aan voor de sterren"),
    "boards": ("Boards", "Borden"),
    "board_of": ("{name}'s board: bright = legal; {n} cells for this roll (tap one to place)",
                 "Bord van {name}: fel = geldig; {n} vakjes voor deze worp (tik er een om te leggen)"),
    "place_stars": ("Place the stars", "Sterren plaatsen"),
    "phase_from_reading": ("Confirm the phase", "Fase bevestigen"),
    "takes_order": ("Taking order: {names}", "Volgorde van pakken: {names}"),
    "tap_takers": ("Tap whose card was taken, in order", "Tik aan wiens kaart gepakt werd, op volgorde"),
    "round_end": ("End of the round", "Einde van de ronde"),
    "round_from_table": ("Round from the cards on the table", "Ronde uit de kaarten op tafel"),
    "takes_from": ("{taker} takes {name}'s card", "{taker} pakt de kaart van {name}"),
    "has_token": ("{name} has the bean token", "{name} heeft de bonenfiche"),
    "take_back": ("Undo last take", "Laatste pakken terug"),
    "reveal_from_reading": ("Confirm the reveal", "Onthulling bevestigen"),
    "row_owner": ("Row {n}: {name}", "Rij {n}: {name}"),
    "need_reading": ("First put the pieces under the camera (or add them by hand).",
                     "Leg eerst de stukken onder de camera (of voeg ze met de hand toe)."),
    # pad / history
    "history": ("Past games", "Eerdere spellen"),
    "no_games": ("No games in the score pad yet.", "Nog geen spellen in het scoreblok."),
    "replay": ("Replay", "Naspelen"),
    "export": ("Export", "Exporteren"),
    "exported": ("Written to {path}", "Opgeslagen in {path}"),
    "step": ("Event {n} of {total}", "Zet {n} van {total}"),
    "stats": ("{name}: {played} played, {wins} won, best {best}",
              "{name}: {played} gespeeld, {wins} gewonnen, beste {best}"),
    "unfinished": ("unfinished", "onafgemaakt"),
    "won_by": ("won by {names}", "gewonnen door {names}"),
    "does_not_replay": ("does not replay", "speelt niet na"),
    "first": ("|<", "|<"),
    "prev": ("<", "<"),
    "nxt": (">", ">"),
    "last": (">|", ">|"),
    "start_of_game": ("Start of the game.", "Begin van het spel."),
    # settings
    "camera": ("Camera", "Camera"),
    "camera_spec": ("Camera source", "Camerabron"),
    "apply": ("Apply", "Toepassen"),
    "preview": ("Preview", "Voorbeeld"),
    "teach": ("Teach my pieces", "Leer mijn stukken"),
    "teach_kind": ("Pieces", "Stukken"),
    "teach_class": ("Class", "Soort"),
    "teach_capture": ("Take photo", "Foto maken"),
    "teach_learn": ("Learn", "Leren"),
    "teach_photos": ("{n} photos of {cls}", "{n} foto's van {cls}"),
    "taught": ("Learned {kind}; profile saved to {path}", "{kind} geleerd; profiel opgeslagen in {path}"),
    "gpio": ("GPIO pins (BCM) confirm / undo / next: {pins}", "GPIO-pinnen (BCM) bevestig / ongedaan / volgende: {pins}"),
    "gpio_none": ("none fitted", "geen aangesloten"),
    "next_button": ("Next", "Volgende"),
    "pin_button": ("{role}: {pin}", "{role}: {pin}"),
    "save": ("Save settings", "Instellingen bewaren"),
    "saved_to": ("Saved to {path}; GPIO pins apply from the next start.",
                 "Bewaard in {path}; GPIO-pinnen gelden vanaf de volgende start."),
    "fps": ("{fps:.0f} frames/s, reading {ms:.0f} ms", "{fps:.0f} beelden/s, lezen {ms:.0f} ms"),
}


def tr(key: str, lang: str = "en", **fields: object) -> str:
    """The string ``key`` in ``lang`` with ``fields`` filled in (the key itself when unknown)."""
    pair = STRINGS.get(key)
    if pair is None:
        return key
    text = pair[1] if lang == "nl" else pair[0]
    return text.format(**fields) if fields else text


# Game names for games whose engine is not installed (an installed engine names itself).
GAME_NAMES = {"bag-of-butts": "Bag of Butts", "nicht-die-bohne": "Nicht die Bohne!",
              "blasting-billy": "Blasting Billy", "buttons": "Buttons"}

# Piece names as players say them; colour-blind players read these labels on the picture.
PIECE_NAMES: dict[str, tuple[str, str]] = {
    "pink": ("pink", "roze"), "yellow": ("yellow", "geel"), "blue": ("blue", "blauw"),
    "green": ("green", "groen"), "black": ("black No Touchy", "zwart Niet aankomen"),
    "gray": ("gray Bonus", "grijs Bonus"), "white": ("white Extra turn", "wit Extra beurt"),
    "khaki": ("khaki Catch up", "kaki Joker"), "red": ("red", "rood"), "purple": ("purple", "paars"),
}


def piece_name(name: str, lang: str = "en") -> str:
    """A piece or colour name for the screen ('gray' -> 'gray Bonus' / 'grijs Bonus')."""
    pair = PIECE_NAMES.get(name)
    return name if pair is None else pair[1 if lang == "nl" else 0]
