"""Shared by the rendered-dice tests: read a rendered tuning scene and check one die's reading."""

from __future__ import annotations

from typing import Any

from vision import bench_dice, dice
from vision.render import dice as render_dice


def render_reads(
    seed: int, buttons: bool = False
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], dict[int, int]]:
    """The dice read in rendered scene ``seed`` (a Buttons roll with ``buttons``), its truth, and the
    bench's matching: truth index -> found index."""
    kinds = render_dice.BUTTONS_SET if buttons else None
    frame, truth = render_dice.scene(seed, kinds=kinds)
    found = dice.read(frame).objects
    return found, truth, {j: i for i, j in bench_dice.match(found, truth)}


def assert_die_right(found: list[dict[str, Any]], truth: list[dict[str, Any]], m: dict[int, int], j: int) -> None:
    """Truth die ``j`` is found, with its pips, body colour and pip colour right."""
    assert j in m, f"die {j} ({truth[j]['pips']}) missed"
    o, t = found[m[j]], truth[j]
    assert (o["pips"], o["body"], o["pip_colour"]) == (t["pips"], t["body"], t["pip_colour"]), (o, t)
