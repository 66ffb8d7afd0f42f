"""The one tally of wins, draws and losses that every command counts its games with."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from tabletop.agents.outcome import DRAW, LOSS, WIN
from tabletop.matches.results import wilson_interval
from tabletop.matches.tally import Tally


def test_tally_counts_outcomes_with_rates_and_wilson_intervals() -> None:
    tally = Tally.of([WIN, WIN, DRAW, LOSS, WIN])
    assert (tally.wins, tally.draws, tally.losses, tally.games) == (3, 1, 1, 5)
    assert (tally.rate(WIN), tally.rate(DRAW), tally.rate(LOSS)) == (0.6, 0.2, 0.2)
    assert tally.interval(LOSS) == wilson_interval(1, 5)


def test_tally_refuses_what_is_not_an_outcome() -> None:
    with pytest.raises(ValueError, match="not an outcome"):
        Tally.of([WIN, "won"])


def test_tally_without_games_has_no_rate_and_the_whole_interval() -> None:
    tally = Tally.of([])
    assert tally.rate(WIN) is None
    assert tally.interval(WIN) == (0.0, 1.0)


def test_a_team_tally_counts_every_game_not_won_as_lost() -> None:
    assert Tally.of_wins(2, 5) == Tally(wins=2, draws=0, losses=3)


def test_figures_keep_the_order_asked_for_and_skip_what_is_no_figure() -> None:
    figures = Tally(1, 0, 3).figures(["win_ci95", "agent", "games", "loss_rate"])
    assert figures == {"win_ci95": wilson_interval(1, 4), "games": 4, "loss_rate": 0.75}
    assert list(figures) == ["win_ci95", "games", "loss_rate"]


def test_figures_for_fill_exactly_the_figures_a_record_declares() -> None:
    @dataclass
    class Record:
        agent: str
        games: int
        draws: int
        draw_rate: float | None

    record = Record(agent="a", **Tally(1, 1, 2).figures_for(Record))
    assert record == Record("a", 4, 1, 0.25)
