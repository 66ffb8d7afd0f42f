"""``tabletop web-load``: a bounded load test that stops by itself and reports latencies,
errors and lost games (figures, never asserted: only that every game ends and is kept)."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("fastapi")

from tabletop.cli.main import main
from tabletop.cli.webload import percentile


def test_a_small_load_test_plays_every_game_to_its_end_and_loses_none(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert (
        main(["web-load", "--game", "kaleva", "--games", "3", "--think", "0", "--seconds", "120"])
        == 0
    )
    output = capsys.readouterr().out
    assert "3 concurrent games of kaleva" in output
    assert ": 3 finished," in output
    assert "errors: 0; lost games: 0" in output
    for name in ("move response", "agents' reply"):
        assert re.search(rf"{name}: p50 [\d.]+ ms, p99 [\d.]+ ms \(\d+ measured\)", output)


def test_web_load_refuses_no_games_and_an_unknown_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["web-load", "--game", "kaleva", "--games", "0"]) == 2
    assert "--games must be at least 1" in capsys.readouterr().err
    assert main(["web-load", "--games", "1", "--game", "chess"]) == 2
    assert "unknown game 'chess'" in capsys.readouterr().err


def test_percentiles_interpolate_between_measurements() -> None:
    values = [float(v) for v in range(1, 101)]
    assert percentile(values, 0.5) == pytest.approx(50.5)
    assert percentile(values, 0.99) == pytest.approx(99.01)
    assert percentile([7.0], 0.99) == 7.0


def test_web_load_beside_a_searching_table_prints_both_runs_p99s(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The figures are the measurement's, not asserted: only that both runs are printed."""
    arguments = ["web-load", "--game", "kaleva", "--games", "2", "--think", "0",
                 "--seconds", "120", "--beside", "ismcts:seconds=0.2"]  # fmt: skip
    assert main(arguments) == 0
    output = capsys.readouterr().out
    assert "beside a table of ismcts:seconds=0.2 agents (" in output
    assert "p99 alone / beside a table of ismcts:seconds=0.2 agents:" in output
    for name in ("move response", "agents' reply"):
        assert re.search(rf"  {name}: [\d.]+ ms alone, [\d.]+ ms beside", output)
