"""Benchmark of the core: how fast ``companion replay`` starts, replays and saves.

Run: ``python3 -m companion.bench_core``. Prints medians of several runs and ratios against a
baseline measured in the same run (a bare ``python3 -c pass`` start, a JSON round trip).
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from companion import records
from companion.session import Session
from companion.store import Store

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "bag-of-butts.json"


def median_seconds(fn, runs: int) -> float:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main() -> None:
    record = records.load(EXAMPLE)
    n = len(record.events)
    base = median_seconds(lambda: subprocess.run([sys.executable, "-c", "pass"], check=True), 15)
    start = median_seconds(lambda: subprocess.run(
        [sys.executable, "-m", "companion.cli", "replay", str(EXAMPLE), "--json"], check=True,
        capture_output=True, cwd=ROOT), 15)
    print(f"process start, python -c pass (baseline): {base * 1000:7.1f} ms")
    print(f"companion replay --json of a {n}-event game: {start * 1000:7.1f} ms  ({start / base:.2f}x baseline)")

    text = EXAMPLE.read_text()
    json_rt = median_seconds(lambda: json.loads(text), 200)
    rep = median_seconds(lambda: records.replay(records.parse(text)), 200)
    print(f"parse JSON only (baseline):              {json_rt * 1e6:7.1f} us")
    print(f"parse + replay {n} events in-process:     {rep * 1e6:7.1f} us  ({rep / json_rt:.1f}x baseline, "
          f"{rep / n * 1e6:.1f} us per event)")

    with tempfile.TemporaryDirectory() as tmp:
        with Store(Path(tmp) / "pad.sqlite3") as store:
            session = Session.new(store, record.game, record.players, record.options)
            times = []
            for e in record.events:
                t = time.perf_counter()
                session.confirm(e)
                times.append(time.perf_counter() - t)
    print(f"confirm one event (check + fsync'd SQLite transaction): median {statistics.median(times) * 1000:.2f} ms, "
          f"max {max(times) * 1000:.2f} ms over {n} events")


if __name__ == "__main__":
    main()
