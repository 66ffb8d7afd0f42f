"""Result statistics and tables shared by every command that reports games or speeds.

One place for the intervals (Wilson for rates, the normal approximation for means, median
and spread for per-round speeds, measured in ``interleaved_rounds``) and for the plain-text
tables, so that ``eval``, ``bench``, ``search`` and the training log compute and print
figures the same way. What a game's result is for a seat is defined below the wrappers, in
``tabletop.agents.outcome``.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

T = TypeVar("T")

Z95 = 1.959964
"""The standard normal quantile of a two-sided 95% interval."""


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval: unlike p ± z·se it stays inside [0, 1] and is sane at 0 or n."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half_width = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - half_width), min(1.0, centre + half_width))


def mean_interval(values: Sequence[float]) -> tuple[float, float] | None:
    """The 95% interval of the mean of ``values`` (mean ± 1.96 standard errors, the normal
    approximation: sound for the hundreds of games an evaluation plays); None for a single
    value, which says nothing of the spread."""
    if len(values) < 2:
        return None
    mean = sum(values) / len(values)
    variance = sum((value - mean) ** 2 for value in values) / (len(values) - 1)
    half_width = Z95 * math.sqrt(variance / len(values))
    return mean - half_width, mean + half_width


@dataclass(frozen=True)
class Spread:
    """A median with the smallest and largest of the values it summarises."""

    median: float
    low: float
    high: float

    @classmethod
    def of(cls, values: Sequence[float]) -> Spread:
        if not values:
            raise ValueError("a spread needs at least one value")
        return cls(statistics.median(values), min(values), max(values))


def ratio_spread(numerators: Sequence[float], denominators: Sequence[float]) -> Spread:
    """Median and spread of the per-round ratios ``numerators[i] / denominators[i]``: both
    figures of a round ran in the same minutes, so the machine's load cancels out of each
    ratio, which it does not out of the ratio of two medians."""
    if len(numerators) != len(denominators):
        raise ValueError(f"{len(numerators)} numerators for {len(denominators)} denominators")
    return Spread.of([n / d for n, d in zip(numerators, denominators, strict=True)])


def interleaved_rounds(measures: dict[str, Callable[[], T]], rounds: int) -> dict[str, list[T]]:
    """Each measure once per round, the order reversed every other round (A B C, C B A,
    A B C, ...) so that no figure always runs first, or always right after another;
    name -> its value in each round."""
    values: dict[str, list[T]] = {name: [] for name in measures}
    order = list(measures)
    for round_index in range(rounds):
        for name in order if round_index % 2 == 0 else reversed(order):
            values[name].append(measures[name]())
    return values


def numeric_stats(stats: dict[str, Any]) -> dict[str, float]:
    """The figures of ``stats`` that can be averaged (numbers and flags)."""
    return {key: float(value) for key, value in stats.items() if isinstance(value, int | float)}


def format_interval(interval: tuple[float, float] | None) -> str:
    """``[0.123, 0.456]``, or ``-`` when there is no interval."""
    return "-" if interval is None else f"[{interval[0]:.3f}, {interval[1]:.3f}]"


def format_options(options: dict[str, Any]) -> str:
    """Game options as ``key=value`` words, ``-`` for none."""
    return " ".join(f"{key}={value}" for key, value in options.items()) or "-"


def format_table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A plain-text table, also valid as a Markdown table for pasting into the docs."""
    widths = [max(len(row[i]) for row in [headers, *rows]) for i in range(len(headers))]

    def line(cells: Sequence[str]) -> str:
        return (
            "| " + " | ".join(cell.ljust(w) for cell, w in zip(cells, widths, strict=True)) + " |"
        )

    separator = "|" + "|".join("-" * (w + 2) for w in widths) + "|"
    return "\n".join([line(headers), separator, *(line(row) for row in rows)])
