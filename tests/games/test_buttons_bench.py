"""The Buttons benchmark runs, checks its fast odds against the full listing and prints its figures."""

from __future__ import annotations

import pytest

from companion import bench_buttons


def test_benchmark_prints_figures_for_mid_round_states(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench_buttons.main(["--states", "2", "--runs", "1"]) == 0
    out = capsys.readouterr().out
    assert "2 mid-round states (5 black dice in play" in out
    assert "baseline: list all 6**6 outcomes" in out and "ratio aids / baseline" in out


def test_benchmark_states_have_all_dice_and_buttons() -> None:
    for game in bench_buttons.mid_round_states(3, seed=5):
        assert game.dice_in_play()["black"] == 4 and game.can_roll()
        assert game.active is not None and game.buttons[game.active]
