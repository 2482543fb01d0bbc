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
    "keep_loot": ("This is {name}'s loot", "Dit is de buit van {name}"),
    "loot_kept": ("Loot read so far: {names}. Lay the next loot under the camera.",
                  "Buit al gelezen: {names}. Leg de volgende buit onder de camera."),
    "loot_again": ("Read the loot again", "Buit opnieuw lezen"),
    "no_loot": ("no cards are read for {name}'s loot", "er zijn geen kaarten gelezen voor de buit van {name}"),
    "camera_found": ("Camera found: the table is live.",
                     "Camera gevonden: de tafel is live."),
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
    "check_unsure": ("Unsure: {n} marked ?. Look at them; tap one to correct it.",
                     "Onzeker: {n} met ?. Kijk ze na; tik erop om te verbeteren."),
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
    # calibration wizard
    "calibrate": ("Calibrate with the play mat", "Kalibreren met de speelmat"),
    "cal_step": ("Step {n} of 4", "Stap {n} van 4"),
    "cal_print": ("Print the play mat", "Print de speelmat"),
    "cal_print_text": ("The play mat has four corner markers the camera finds, three zones for the groups "
                       "of Bag of Butts, and a white and a grey patch that correct the colours. Print it on "
                       "A4 or A3, at 100 % (no 'fit to page'). On a computer: companion mat --size A4 "
                       "--out mat.pdf. Or write it here into the exports folder:",
                       "De speelmat heeft vier hoekmarkers die de camera vindt, drie vakken voor de groepjes "
                       "van Bag of Butts, en een wit en een grijs vlak die de kleuren corrigeren. Print hem "
                       "op A4 of A3, op 100 % (niet 'passend maken'). Op een computer: companion mat --size A4 "
                       "--out mat.pdf. Of schrijf hem hier in de map exports:"),
    "cal_paper": ("Paper: {size}", "Papier: {size}"),
    "cal_write": ("Write {fmt}", "{fmt} maken"),
    "cal_writing": ("Writing the play mat...", "De speelmat wordt gemaakt..."),
    "cal_written": ("Play mat written to {path}", "Speelmat geschreven naar {path}"),
    "cal_place": ("Place the mat under the camera", "Leg de mat onder de camera"),
    "cal_place_text": ("Lay the mat flat in the middle of the picture, all four corner markers visible. "
                       "Green: markers found; blue: play area; orange: the three zones; white and grey: "
                       "the patches that correct the colours.",
                       "Leg de mat plat midden in het beeld, met alle vier hoekmarkers zichtbaar. "
                       "Groen: gevonden markers; blauw: speelveld; oranje: de drie vakken; wit en grijs: "
                       "de vlakken die de kleuren corrigeren."),
    "mat_found": ("Mat found: {n} of 5 markers.", "Mat gevonden: {n} van 5 markers."),
    "mat_no-frame": ("No picture from the camera yet.", "Nog geen beeld van de camera."),
    "mat_no-markers": ("Mat not found: no markers seen. Put the whole mat under the camera, in good light.",
                       "Mat niet gevonden: geen markers gezien. Leg de hele mat onder de camera, in goed licht."),
    "mat_few-markers": ("Mat not found: only {n} marker seen; at least 2 corner markers must be visible "
                        "(best all four).",
                        "Mat niet gevonden: maar {n} marker gezien; er moeten minstens 2 hoekmarkers "
                        "zichtbaar zijn (liefst alle vier)."),
    "mat_not-the-mat": ("Mat not found: {n} markers seen, but too small or blurred to place the mat, or "
                        "not where the play mat has them. Bring the camera closer, or print the mat again "
                        "at 100 %.",
                        "Mat niet gevonden: {n} markers gezien, maar te klein of te wazig om de mat te "
                        "plaatsen, of niet waar de speelmat ze heeft. Breng de camera dichterbij, of print "
                        "de mat opnieuw op 100 %."),
    "mat_dark": ("Mat found, but the white patch is too dark to correct the colours: more light.",
                 "Mat gevonden, maar het witte vlak is te donker om de kleuren te corrigeren: meer licht."),
    "mat_patches": ("White patch B/G/R: {w}\nGrey patch B/G/R: {g}\nColour gains B/G/R: {gains}",
                    "Wit vlak B/G/R: {w}\nGrijs vlak B/G/R: {g}\nKleurversterking B/G/R: {gains}"),
    "cal_lock": ("Lock the colours", "Kleuren vastzetten"),
    "cal_lock_text": ("With the mat in view, lock the colours so they stay the same all game, whatever "
                      "hands and heads do to the light.",
                      "Zet met de mat in beeld de kleuren vast, zodat ze het hele spel gelijk blijven, "
                      "wat handen en hoofden ook met het licht doen."),
    "cal_lock_button": ("Lock now", "Nu vastzetten"),
    "cal_measuring": ("Measuring the light... keep hands off the table.",
                      "Het licht wordt gemeten... handen van tafel."),
    "cal_locked": ("Locked: exposure {ms:.1f} ms, gain {gain:.2f}, colour gains red {red:.2f} blue {blue:.2f}. "
                   "Saved to {path}",
                   "Vastgezet: belichting {ms:.1f} ms, versterking {gain:.2f}, kleurversterking rood "
                   "{red:.2f} blauw {blue:.2f}. Bewaard in {path}"),
    "cal_no_settle": ("The camera did not settle on an exposure; try again.",
                      "De camera vond geen vaste belichting; probeer het opnieuw."),
    "cal_no_lock": ("This camera ({camera}) cannot lock its exposure and colour gains: the white patch of "
                    "the mat corrects every frame instead, so keep the patches in view.",
                    "Deze camera ({camera}) kan belichting en kleurversterking niet vastzetten: het witte "
                    "vlak van de mat corrigeert in plaats daarvan elk beeld, dus houd de vlakken in beeld."),
    "cal_check": ("Check a reading", "Lezing controleren"),
    "cal_check_text": ("Lay some pieces on the mat and read them once: the picture labels every piece "
                       "found. Wrong colours? Lock again, or teach the reader your pieces in Settings.",
                       "Leg wat stukken op de mat en lees ze één keer: het beeld zet bij elk gevonden stuk "
                       "wat het is. Verkeerde kleuren? Zet opnieuw vast, of leer de lezer je stukken bij "
                       "Instellingen."),
    "cal_read": ("Read {kind}", "{kind} lezen"),
    "cal_reading": ("Reading...", "Bezig met lezen..."),
    "cal_read_result": ("{n} found: {text}", "{n} gevonden: {text}"),
    "cal_next": ("Next", "Volgende"),
    "cal_previous": ("Previous", "Vorige"),
    "cal_done": ("Done", "Klaar"),
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
