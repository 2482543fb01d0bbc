"""Benchmark of the Buttons teaching aids: bust odds + opt-out stars for typical mid-round states.

``python3 -m companion.bench_buttons`` prints the median time of ``bust_probability()`` +
``optout_stars()`` (with the odds cache emptied before every call, so nothing is reused), the
same for ``view()``, and a baseline measured in the same run: listing all 6**6 outcomes of the
white die and the five black dice one by one. It prints figures and writes nothing.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable

from companion.games.buttons import Buttons
from companion.games.buttons_board import bust_chance_enumerated, bust_chance_from_counts
from companion.games.buttons_play import random_event, random_setup

TARGET_MS = 20.0


def mid_round_states(count: int, seed: int = 2024) -> list[Buttons]:
    """Games paused before a roll with all 5 black dice in play and about half the board taken.

    "Taken" counts the cells that cannot take a button: stars, buttons and their neighbours.
    """
    rng = random.Random(seed)
    states: list[Buttons] = []
    while len(states) < count:
        players, options = random_setup(rng, rng.choice((2, 3, 4)))
        game = Buttons(players, options)
        while not game.is_over and len(states) < count:
            p = game.active
            if (game.can_roll() and p is not None and game.set_aside == 0 and game.buttons[p]
                    and 14 <= 36 - len(game.legal_cells(p)) <= 22):
                states.append(game)
                break
            game.apply(random_event(game, rng))
    return states


def median_ms(runs: int, work: Callable[[], int]) -> float:
    """Median over ``runs`` of the time per call, in milliseconds; ``work`` returns its call count."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        calls = work()
        times.append((time.perf_counter() - start) * 1000 / calls)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python3 -m companion.bench_buttons", description=__doc__.splitlines()[0])
    ap.add_argument("--states", type=int, default=20, help="mid-round states to time (default 20)")
    ap.add_argument("--runs", type=int, default=7, help="runs per figure; the median is printed (default 7)")
    args = ap.parse_args(argv)
    states = mid_round_states(max(1, args.states))

    def aids() -> int:
        for _ in range(10):
            for game in states:
                bust_chance_from_counts.cache_clear()  # every call works the odds out afresh
                game.bust_probability()
                game.optout_stars()
        return 10 * len(states)

    def views() -> int:
        for game in states:
            game.view()
        return len(states)

    def baseline() -> int:  # slow: a few states are enough for a per-state figure
        for game in states[:4]:
            p = game.active
            assert p is not None
            bust_chance_enumerated(game.buttons[p], game.stars[p], 1 + game.dice_in_play()["black"])
        return len(states[:4])

    for game in states:  # the fast odds and the plain listing agree, or the figures mean nothing
        p = game.active
        assert p is not None
        if game.bust_chance() != bust_chance_enumerated(game.buttons[p], game.stars[p], 5):
            print("bench_buttons: the fast bust odds disagree with the full listing", file=sys.stderr)
            return 1

    cold = median_ms(args.runs, aids)
    view = median_ms(args.runs, views)
    base = median_ms(args.runs, baseline)
    odds = [s.bust_probability() for s in states]
    taken = [36 - len(s.legal_cells(s.active or "")) for s in states]
    print(f"Buttons teaching aids: {len(states)} mid-round states (5 black dice in play, "
          f"{min(taken)}-{max(taken)} of 36 cells taken, bust odds {min(odds):.1%}-{max(odds):.1%}), "
          f"median of {args.runs} runs, Python {sys.version.split()[0]}")
    print(f"  bust_probability + optout_stars (no cache)   {cold * 1000:9.1f} us per state")
    print(f"  view() (all a screen shows)                  {view * 1000:9.1f} us per state")
    print(f"  baseline: list all 6**6 outcomes one by one  {base * 1000:9.1f} us per state")
    print(f"  ratio aids / baseline                        {cold / base:9.5f}  ({base / cold:,.0f}x faster)")
    print(f"  target: under {TARGET_MS:.0f} ms per state -> {'met' if cold < TARGET_MS else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
