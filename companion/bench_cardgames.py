"""Print how long the card-game engines take: whole-record replays and a screen refresh per event.

Run from the repository root: ``python3 -m companion.bench_cardgames``. Each figure is the median
of 7 runs; the baseline is ``json.loads`` of the same record text in the same run, so the ratio
says how much the rules cost compared with just reading the file.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

from companion import records
from companion.records import Record

ROOT = Path(__file__).resolve().parent.parent

RUNS = 7


def median_ms(fn) -> float:
    times = []
    for _ in range(RUNS):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times)


def refresh_every_event(doc: dict) -> None:
    """Apply each event and build the screen snapshot after it, as the companion does at the table."""
    game = records.start(Record.from_json(doc))
    for event in doc["events"]:
        game.apply(event)
        json.dumps(game.view())


def main() -> None:
    print(f"python {sys.version.split()[0]}, median of {RUNS} runs")
    for name in ("nicht-die-bohne", "blasting-billy"):
        text = (ROOT / "examples" / f"{name}.json").read_text(encoding="utf-8")
        doc = json.loads(text)
        n = len(doc["events"])
        base = median_ms(lambda text=text: json.loads(text))
        replay = median_ms(lambda text=text: records.replay(records.parse(text)))
        screens = median_ms(lambda doc=doc: refresh_every_event(doc))
        print(f"{name}: {n} events; json.loads {base:.3f} ms; replay {replay:.2f} ms "
              f"(x{replay / base:.0f} of json.loads); apply+view+json per event {screens / n:.3f} ms "
              f"({screens:.1f} ms for the game)")


if __name__ == "__main__":
    main()
