"""One side's wins, draws and losses over some games, with each outcome's rate and interval.

Every command that counts games (``bench``, ``eval``, ``balance``, the trainers' log) counts
them here, so that a rate and its Wilson interval are computed one way. The records those
commands save keep their own JSON shapes: each declares the figures it keeps as dataclass
fields, and ``Tally.figures_for`` fills exactly those.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, fields
from typing import Any

from tabletop.agents.outcome import DRAW, LOSS, OUTCOMES, WIN
from tabletop.matches.results import wilson_interval

COUNT_NAMES = {WIN: "wins", DRAW: "draws", LOSS: "losses"}
"""Outcome -> the name of its count among the figures (``win_rate`` and ``win_ci95`` are
named after the outcome itself)."""


@dataclass(frozen=True)
class Tally:
    """Wins, draws and losses of one side; a team result counts a game not won as lost."""

    wins: int = 0
    draws: int = 0
    losses: int = 0

    @classmethod
    def of(cls, outcomes: Iterable[str]) -> Tally:
        """The tally of outcomes ``win``, ``draw`` and ``loss``; anything else is refused."""
        counts = Counter(outcomes)
        unknown = set(counts) - set(OUTCOMES)
        if unknown:
            raise ValueError(f"not an outcome: {sorted(unknown)} (known: {', '.join(OUTCOMES)})")
        return cls(counts[WIN], counts[DRAW], counts[LOSS])

    @classmethod
    def of_wins(cls, wins: int, games: int) -> Tally:
        """A team's tally: a game is won or not, never drawn."""
        return cls(wins=wins, losses=games - wins)

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    def count(self, outcome: str) -> int:
        return getattr(self, COUNT_NAMES[outcome])

    def rate(self, outcome: str) -> float | None:
        """The share of games that ended in ``outcome``; None without games."""
        return self.count(outcome) / self.games if self.games else None

    def interval(self, outcome: str) -> tuple[float, float]:
        """The 95% Wilson interval of ``rate(outcome)`` ((0, 1) without games)."""
        return wilson_interval(self.count(outcome), self.games)

    def figures(self, names: Iterable[str]) -> dict[str, Any]:
        """Those of ``names`` that are figures of a tally (``games``, ``wins``, ``draws``,
        ``losses``, ``<outcome>_rate``, ``<outcome>_ci95``), in the order of ``names``."""
        every: dict[str, Any] = {"games": self.games}
        every.update({COUNT_NAMES[outcome]: self.count(outcome) for outcome in OUTCOMES})
        for outcome in OUTCOMES:
            every[f"{outcome}_rate"] = self.rate(outcome)
            every[f"{outcome}_ci95"] = self.interval(outcome)
        return {name: every[name] for name in names if name in every}

    def figures_for(self, record: type) -> dict[str, Any]:
        """The figures that the dataclass ``record`` declares as fields, as keyword arguments."""
        return self.figures(field.name for field in fields(record))
