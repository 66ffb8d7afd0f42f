"""What a set of played games says about the agents that played them: one agent against
another (``pair_result``), the first seat's advantage (``first_seat_result``), ratings
from every game (``ratings``), one agent at every seat of a cooperative game
(``team_result``) and how long an agent took to decide (``decision_time``).

The evaluation command prints and saves these; the trainers log them for their snapshots.
Counting is the ``Tally``'s, so every rate has the same Wilson interval.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from tabletop.agents.outcome import DRAW, LOSS, WIN, side_outcome, team_outcome
from tabletop.matches.records import GameRecord
from tabletop.matches.results import mean_interval
from tabletop.matches.tally import Tally


@dataclass
class PairResult:
    """``a`` against ``b``, counted from ``a``'s side."""

    a: str
    b: str
    games: int
    wins: int
    draws: int
    losses: int
    win_rate: float
    win_ci95: tuple[float, float]
    loss_rate: float
    loss_ci95: tuple[float, float]


@dataclass
class TeamResult:
    """One agent at every seat of a cooperative game."""

    agent: str
    games: int
    wins: int
    win_rate: float
    win_ci95: tuple[float, float]
    stats_mean: dict[str, float]
    metric: str
    """The game's ``best_metric``: ``win_rate`` or the ``stats()`` figure that ranks agents."""
    metric_mean: float
    metric_ci95: tuple[float, float] | None
    """95% interval of ``metric_mean`` (Wilson for ``win_rate``); None from one game."""
    distributions: dict[str, dict[str, int]] = field(default_factory=dict)


@dataclass
class DecisionTime:
    """One agent's wall time in ``act`` over its timed decisions in some games."""

    agent: str
    decisions: int
    mean_ms: float | None
    """None without timed decisions."""
    p95_ms: float | None
    """The 95th percentile; None unless every timed decision's own time was kept (records
    written before that keep only totals)."""

    def ms_text(self) -> str:
        """``mean / p95`` in ms for a table; ``-`` for a figure there is not."""
        if self.mean_ms is None:
            return "-"
        p95 = "-" if self.p95_ms is None else f"{self.p95_ms:.3g}"
        return f"{self.mean_ms:.3g} / {p95}"


def pair_result(a: str, b: str, records: Sequence[GameRecord]) -> PairResult:
    """``a``'s results against ``b``, each game seen with ``a``'s seats as one side."""
    tally = Tally.of(record.side_outcome(a) for record in records)
    return PairResult(a=a, b=b, **tally.figures_for(PairResult))


def first_seat_result(records: Sequence[GameRecord]) -> dict[str, Any]:
    """How often seat 0 wins outright; with seats swapped equally, agent strength cancels
    and the remainder is the seat's advantage (no advantage: about 1 / players)."""
    wins = sum(side_outcome(record.returns, 0) == WIN for record in records)
    tally = Tally.of_wins(wins, len(records))
    return {
        **tally.figures(["games", "wins", "win_rate", "win_ci95"]),
        "even_share": 1 / len(records[0].seats),
    }


def ratings(records: Sequence[GameRecord], labels: Sequence[str]) -> list[dict[str, Any]]:
    """Plackett-Luce ratings from every game, in schedule order; sorted best first by the
    conservative ``ordinal`` (mu - 3 sigma)."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    rating = {label: model.rating(name=label) for label in labels}
    for record in records:
        sides = sorted(set(record.seats))
        rank = {WIN: 1, DRAW: 1, LOSS: 2}
        ranks = [rank[record.side_outcome(side)] for side in sides]
        updated = model.rate([[rating[side]] for side in sides], ranks=ranks)
        for side, (new_rating,) in zip(sides, updated, strict=True):
            rating[side] = new_rating
    table = [
        {"agent": label, "mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal()}
        for label, r in rating.items()
    ]
    return sorted(table, key=lambda row: -row["ordinal"])


def team_result(
    label: str, records: Sequence[GameRecord], distribution_stats: Sequence[str], metric: str
) -> TeamResult:
    """``label``'s team figures; ``metric`` is the game's ``best_metric``."""
    games = len(records)
    tally = _team_tally(records)
    sums: Counter[str] = Counter()
    for record in records:
        sums.update(record.stats)
    distributions = {
        key: dict(sorted(Counter(_stat_label(r.stats.get(key)) for r in records).items()))
        for key in distribution_stats
        if any(key in r.stats for r in records)  # e.g. grades exist only in solo games
    }
    return TeamResult(
        agent=label,
        **tally.figures_for(TeamResult),
        stats_mean={key: total / games for key, total in sums.items()},
        metric=metric,
        distributions=distributions,
        **_metric_figures(records, metric),
    )


def _team_tally(records: Sequence[GameRecord]) -> Tally:
    wins = sum(team_outcome(record.returns) == WIN for record in records)
    return Tally.of_wins(wins, len(records))


def _metric_figures(records: Sequence[GameRecord], metric: str) -> dict[str, Any]:
    """``metric_mean`` and ``metric_ci95`` of the games: the win rate with its Wilson
    interval, or a ``stats()`` figure's mean with its normal-approximation interval."""
    if metric == "win_rate":
        tally = _team_tally(records)
        return {"metric_mean": tally.rate(WIN), "metric_ci95": tally.interval(WIN)}
    if any(metric not in record.stats for record in records):
        known = ", ".join(sorted({key for record in records for key in record.stats}))
        raise ValueError(f"best_metric {metric!r} is not a stats() figure of every game ({known})")
    values = [record.stats[metric] for record in records]
    mean = sum(values) / len(values)
    return {"metric_mean": mean, "metric_ci95": mean_interval(values)}


def _stat_label(value: float | None) -> str:
    """A stat value as a distribution key; ``"-"`` for games that do not report it."""
    if value is None:
        return "-"
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def decision_time(label: str, records: Sequence[GameRecord]) -> DecisionTime:
    """``label``'s time per decision at every seat it held whose decisions were timed."""
    timings = [
        timing
        for record in records
        for seat, timing in enumerate(record.timing)
        if timing is not None and record.seats[seat] == label
    ]
    decisions = sum(timing.decisions for timing in timings)
    each = [seconds for timing in timings for seconds in timing.seconds_each]
    seconds = sum(timing.seconds for timing in timings)
    return DecisionTime(
        agent=label,
        decisions=decisions,
        mean_ms=1000 * seconds / decisions if decisions else None,
        p95_ms=1000 * float(np.percentile(each, 95)) if each and len(each) == decisions else None,
    )
