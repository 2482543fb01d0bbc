"""Benchmark of the home and past-games screens' replays with a large score pad.

    python3 -m ui.bench_summaries [--games 200] [--runs 5]

Stores the four example records (examples/*.json) over and over in a temporary score pad, then
times what opening home and past games asks of the store and the engines: the Resume offer (the
latest unfinished game) and every game's summary. Baseline, in the same run: replaying every game
each time (as before the cache); then ``ui.summaries.SummaryCache``: the first open (cold, every
game replayed once) and opening again (warm, nothing changed), and again after one game got an
event. Prints medians over the runs. No Kivy needed.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from companion import records
from companion.session import latest_unfinished
from companion.store import Store
from ui.summaries import SummaryCache

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def fill(store: Store, games: int) -> None:
    """Store ``games`` games cycling through the example records; the last one is left unfinished."""
    examples = [records.load(p) for p in sorted(EXAMPLES.glob("*.json"))]
    for i in range(games):
        record = examples[i % len(examples)]
        events = record.events if i < games - 1 else record.events[: len(record.events) // 2]
        game_id = store.create_game(record.game, list(record.players), dict(record.options))
        for event in events:
            store.append(game_id, dict(event))


def open_screens_uncached(store: Store) -> None:
    """Home's Resume offer and past games' summaries, every game replayed (the old way)."""
    latest_unfinished(store)
    for info in store.games():
        records.replay(store.record(info.id)).summary()


def open_screens_cached(store: Store, cache: SummaryCache) -> None:
    infos = store.games()
    cache.latest_unfinished(store, infos)
    for info in infos:
        cache.summary(store, info)


def ms(f, *args: object) -> float:
    """Milliseconds one call of ``f(*args)`` takes."""
    t0 = time.perf_counter()
    f(*args)
    return (time.perf_counter() - t0) * 1000


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python3 -m ui.bench_summaries")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(Path(tmp) / "scorepad.sqlite3")
        fill(store, args.games)
        events = sum(i.events for i in store.games())
        base, cold, warm, changed = [], [], [], []
        for _ in range(args.runs):
            base.append(ms(open_screens_uncached, store))
            cache = SummaryCache()
            cold.append(ms(open_screens_cached, store, cache))
            warm.append(ms(open_screens_cached, store, cache))
            game = store.games()[-1]  # the oldest game gets one more event (an undo, then redo)
            store.undo(game.id)
            store.redo(game.id)
            replays = cache.replays
            changed.append(ms(open_screens_cached, store, cache))
            if cache.replays != replays + 1:
                print(f"unexpected: {cache.replays - replays} games replayed after one changed")
        store.close()
    b = statistics.median(base)
    print(f"{args.games} stored games, {events} events; medians of {args.runs} runs")
    print(f"replay every game (baseline)      {b:8.1f} ms")
    for name, values in (("cache, first open", cold), ("cache, open again", warm),
                         ("cache, after one game changed", changed)):
        m = statistics.median(values)
        print(f"{name:<33} {m:8.1f} ms  ({m / b:.3f} of baseline)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
