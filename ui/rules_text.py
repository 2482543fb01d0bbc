"""The rules page of each game, short enough to read at the table, in English and Dutch."""

from __future__ import annotations

RULES: dict[str, tuple[str, str]] = {
    "bag-of-butts": (
        "[b]Bag of Butts[/b] (2-4 players)\n"
        "The bag holds 8 player butts (2 of each colour) and the specials added so far.\n"
        "[b]Start of a turn:[/b] add one random special from the supply, or reset the bag "
        "(take all specials out). After an automatic reset, and on the first turn, just play.\n"
        "[b]Draw[/b] three groups. If every group holds a special: automatic reset, nobody scores.\n"
        "[b]Score one group[/b] (never one with a black No Touchy, never one of specials only). "
        "Every player scores 1 + V + G per own butt in it: V = turns since the last reset, "
        "G = gray Bonus butts in the group. Khaki Catch up counts as a butt of the player with the "
        "fewest points; white Extra turn gives the active player another turn.\n"
        "[b]End:[/b] once someone has 28 points, the game ends at the next reset. Most points wins; "
        "a tie is settled by a tiebreaker game until its first reset.",
        "[b]Bag of Butts[/b] (2-4 spelers)\n"
        "De zak bevat 8 spelerskontjes (2 van elke kleur) en de speciale kontjes die erbij kwamen.\n"
        "[b]Begin van de beurt:[/b] doe er één willekeurig speciaal kontje bij, of reset de zak "
        "(alle speciale eruit). Na een automatische reset, en in de eerste beurt, speel je gewoon.\n"
        "[b]Trek[/b] drie groepen. Zit er in elke groep een speciaal kontje: automatische reset, "
        "niemand scoort.\n"
        "[b]Scoor één groep[/b] (nooit een met een zwart Niet aankomen, nooit een met alleen speciale). "
        "Elke speler scoort 1 + V + G per eigen kontje erin: V = beurten sinds de laatste reset, "
        "G = grijze Bonus-kontjes in de groep. Kaki Joker telt als kontje van wie de minste punten "
        "heeft; wit Extra beurt geeft de actieve speler nog een beurt.\n"
        "[b]Einde:[/b] heeft iemand 28 punten, dan eindigt het spel bij de volgende reset. De meeste "
        "punten wint; bij gelijkspel beslist een extra spel tot de eerste reset."),
    "nicht-die-bohne": (
        "[b]Nicht die Bohne![/b] (3-6 players, 3 rounds)\n"
        "Each phase the bean-token holder plays a card face up, the others face down; then all are "
        "revealed. The token holder takes another player's card, then the player whose card was taken "
        "takes one, and so on; the last player gets the token card and starts the next phase.\n"
        "[b]Scoring a colour row:[/b] the sum of its beans; a Nicht die Bohne card makes it 0; an odd "
        "number of +/- cards makes it negative; a 2x doubles it.\n"
        "Lay the played cards in a row in seat order under the camera, tap whose cards were taken in "
        "order, then Confirm.",
        "[b]Nicht die Bohne![/b] (3-6 spelers, 3 rondes)\n"
        "Elke fase speelt de houder van de boon een kaart open, de anderen dicht; dan gaan ze open. "
        "De houder pakt de kaart van een ander, dan pakt wiens kaart gepakt werd, enzovoort; de "
        "laatste krijgt de kaart met de boon en begint de volgende fase.\n"
        "[b]Een kleurrij telt:[/b] de som van de bonen; een Nicht die Bohne-kaart maakt haar 0; een "
        "oneven aantal +/- kaarten maakt haar negatief; een 2x verdubbelt.\n"
        "Leg de gespeelde kaarten op een rij in zitvolgorde onder de camera, tik aan wiens kaarten "
        "gepakt werden, op volgorde, en bevestig."),
    "blasting-billy": (
        "[b]Blasting Billy[/b] (2-5 players)\n"
        "Each turn play a card: give it to Billy, claim it into your own rows, or dump it in the box; "
        "then draw. After the last card is drawn, everyone plays once more.\n"
        "[b]Reveal:[/b] lay each owner's cards as rows under the camera (Billy first), in the order "
        "they were played. A dynamite card blows away itself and the card before it. Any colour in "
        "which you beat Billy's total gets you shot. Of the players not shot, the highest total wins "
        "(tie: fewest cards). If everyone is shot, only rows not shot count. If nobody scores, Billy wins.",
        "[b]Blasting Billy[/b] (2-5 spelers)\n"
        "Speel elke beurt een kaart: aan Billy, in je eigen rijen, of in de doos; trek dan een kaart. "
        "Na de laatste kaart speelt iedereen nog één keer.\n"
        "[b]Onthulling:[/b] leg de kaarten van elke eigenaar als rijen onder de camera (Billy eerst), "
        "in de volgorde van spelen. Dynamiet blaast zichzelf en de kaart ervoor weg. Heb je in een "
        "kleur meer dan Billy, dan word je neergeschoten. Van wie niet geschoten is wint het hoogste "
        "totaal (gelijk: minste kaarten). Is iedereen geschoten, dan tellen alleen de open rijen. "
        "Scoort niemand, dan wint Billy."),
    "buttons": (
        "[b]Buttons[/b] (2-4 players)\n"
        "On your turn roll the white die and the black dice, or opt out (after placing a button this "
        "round). You must place a button at row = white die, column = any black die, on a free cell "
        "with no button next to it. The others may place one at white x gold-pip black die. No legal "
        "cell: bust, your buttons this round are removed.\n"
        "[b]Stars:[/b] +1 for opting out, +1 per colour with 3 cells covered this round, +1 per bonus "
        "colour among those. Place them on your covered cells.\n"
        "[b]End:[/b] 5 stars in a line or 12 stars, at the end of a round.",
        "[b]Buttons[/b] (2-4 spelers)\n"
        "Gooi in je beurt de witte en de zwarte dobbelstenen, of stop (als je deze ronde een knoop "
        "legde). Je moet een knoop leggen op rij = witte steen, kolom = een zwarte steen, op een vrij "
        "vak zonder knoop ernaast. De anderen mogen er een leggen op wit x zwart met gouden ogen. "
        "Geen geldig vak: pech, je knopen van deze ronde gaan eraf.\n"
        "[b]Sterren:[/b] +1 voor stoppen, +1 per kleur met 3 bedekte vakken deze ronde, +1 per "
        "bonuskleur daarvan. Leg ze op je bedekte vakken.\n"
        "[b]Einde:[/b] 5 sterren op een rij of 12 sterren, aan het eind van een ronde."),
}
