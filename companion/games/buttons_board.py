"""Buttons board arithmetic: legal cells, colour counts, lines of stars and exact bust odds.

Pure functions on plain values (cells are ``(row, col)`` tuples, 1-based: row = white die,
column = black die) so the engine, its teaching aids, the tests and the benchmark share them.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from fractions import Fraction
from functools import lru_cache
from itertools import product

Cell = tuple[int, int]

SIZE = 6
FACES = range(1, SIZE + 1)
LETTERS = "RYGB"
LINE = 5
ALL_CELLS: tuple[Cell, ...] = tuple((r, c) for r in FACES for c in FACES)
NEIGHBOURS: dict[Cell, tuple[Cell, ...]] = {
    (r, c): tuple((r + dr, c + dc) for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
                  if 1 <= r + dr <= SIZE and 1 <= c + dc <= SIZE)
    for r, c in ALL_CELLS
}


def is_legal(cell: Cell, buttons: Collection[Cell], stars: Collection[Cell]) -> bool:
    """A cell takes a button when it has no button, no star and no button orthogonally next to it."""
    if cell in buttons or cell in stars:
        return False
    return not any(n in buttons for n in NEIGHBOURS[cell])


def legal_cells(buttons: Collection[Cell], stars: Collection[Cell]) -> list[Cell]:
    """Every cell of a board that could take a button now, row by row."""
    return [cell for cell in ALL_CELLS if is_legal(cell, buttons, stars)]


def legal_counts(buttons: Collection[Cell], stars: Collection[Cell]) -> tuple[int, ...]:
    """How many legal columns each row 1..6 has: all the bust odds depend on."""
    counts = [0] * SIZE
    for r, c in ALL_CELLS:
        if is_legal((r, c), buttons, stars):
            counts[r - 1] += 1
    return tuple(counts)


@lru_cache(maxsize=4096)
def bust_chance_from_counts(counts: tuple[int, ...], black_dice: int) -> Fraction:
    """Exact chance of a bust: the white die picks a row, and every black die misses its legal columns.

    By symmetry the outcomes need not be listed one by one: for a row with ``m`` legal columns,
    exactly ``(6 - m) ** black_dice`` of the ``6 ** black_dice`` black results miss them all.
    ``black_dice`` counts the gold-pip black die too.
    """
    misses = sum((SIZE - m) ** black_dice for m in counts)
    return Fraction(misses, SIZE ** (black_dice + 1))


def bust_chance(buttons: Collection[Cell], stars: Collection[Cell], black_dice: int) -> Fraction:
    """Exact chance that rolling the white die and ``black_dice`` black dice leaves no legal cell."""
    return bust_chance_from_counts(legal_counts(buttons, stars), black_dice)


def bust_chance_enumerated(buttons: Collection[Cell], stars: Collection[Cell], black_dice: int) -> Fraction:
    """The same chance by listing every roll one by one: the plain reference the fast version must match."""
    legal = set(legal_cells(buttons, stars))
    busts = 0
    total = 0
    for white, *blacks in product(FACES, repeat=black_dice + 1):
        total += 1
        if not any((white, b) in legal for b in blacks):
            busts += 1
    return Fraction(busts, total)


def colour_of(board: tuple[str, ...], cell: Cell) -> str:
    """The colour letter (R, Y, G or B) printed on a board cell."""
    return board[cell[0] - 1][cell[1] - 1]


def colour_counts(board: tuple[str, ...], cells: Iterable[Cell]) -> dict[str, int]:
    """How many of ``cells`` are of each colour letter, in R Y G B order."""
    counts = dict.fromkeys(LETTERS, 0)
    for cell in cells:
        counts[colour_of(board, cell)] += 1
    return counts


def scoring_colours(board: tuple[str, ...], cells: Iterable[Cell]) -> list[str]:
    """The colours covered with at least 3 buttons (each earns one star), in R Y G B order."""
    return [letter for letter, n in colour_counts(board, cells).items() if n >= 3]


def has_line_of_five(stars: Collection[Cell]) -> bool:
    """True when 5 stars lie next to each other in one row or one column (never diagonally)."""
    if len(stars) < LINE:
        return False
    for a in FACES:
        across = down = 0
        for b in FACES:
            across = across + 1 if (a, b) in stars else 0
            down = down + 1 if (b, a) in stars else 0
            if across >= LINE or down >= LINE:
                return True
    return False
