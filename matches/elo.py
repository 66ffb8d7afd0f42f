"""Elo ratings of a round robin: a Bradley-Terry maximum-likelihood fit of every game at
once, with 95% intervals from games simulated by that fit (a parametric bootstrap).

Why this and not openskill (the ratings ``tabletop eval`` prints): openskill updates its
ratings game by game, so the same games in another order give other ratings, and its sigma
is what the model still doubts after that sequence of updates, not an interval over the
games. A ladder is read as "how much stronger is A than B, and how sure is that": the fit
uses all games at once (their order does not matter), its Elo scale reads as an expected
score (200 points: about 76% against the other), and the interval is how far the ratings
move when every pair plays its games again, the way Ordo rates chess engines.

- Model: agent a scores 1 / (1 + 10^((R_b - R_a) / 400)) against b on average; a win
  counts 1, a draw 1/2, a loss 0 (each game seen from its two agents' sides).
- Prior: one virtual draw between each pair that played (BayesElo's prior), so that an
  agent that won every game gets a finite rating; its weight fades as games are added.
- Anchor: ratings are differences; ``anchor`` is fixed at 0 (its interval is then [0, 0]
  and the others' intervals are relative to it), or without one the mean rating is 0.
- Intervals: each pair's games are played again ``samples`` times in simulation, each won
  with the fitted expected score, the ratings refitted each time, and the 2.5th and 97.5th
  percentiles kept. Simulated, not resampled from the games played: resampling a pair that
  won every game redraws the same games and gives an interval of zero width, while the fit,
  which the prior keeps below certainty, sometimes loses. Simulated games are won or lost,
  never drawn, which widens the interval a little when games are drawn (never narrows it).
  The seat swaps of a deal cancel its luck in the games played; the simulation does not
  model that, which also errs wide.
- Gaps: each agent's lead over the next one down, with the interval of that difference
  over the same simulations. An agent's interval is relative to the anchor, so an anchor
  that won no game (random, rated on its one virtual draw alone) widens every other
  interval one way; the gap between two neighbours does not depend on the anchor, and
  says whether the ladder orders them ("A above B" holds when the gap's interval is above 0).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from tabletop.agents.outcome import DRAW, LOSS, WIN
from tabletop.matches.records import GameRecord

ELO_PER_NAT = 400 / math.log(10)
"""Elo points per unit of log-odds."""
PRIOR_DRAWS = 1
"""Virtual draws added between each pair that played (see the module docstring)."""
BOOTSTRAP_SAMPLES = 1000
SCORE = {WIN: 1.0, DRAW: 0.5, LOSS: 0.0}
MAX_NEWTON_STEPS = 100
MAX_STEP = 3.0
"""Largest change of a log-strength in one Newton step: keeps the first steps of a lopsided
record from overshooting."""


@dataclass(frozen=True)
class EloRating:
    agent: str
    elo: float
    ci95: tuple[float, float]
    gap_to_next: float | None = None
    """Elo above the next agent down the ladder; None for the last."""
    gap_ci95: tuple[float, float] | None = None


@dataclass(frozen=True)
class PairScores:
    """The games of a round robin as arrays, one entry per pair of agents."""

    first: np.ndarray
    """Index of the pair's first agent."""
    second: np.ndarray
    points: np.ndarray
    """The first agent's score against the second."""
    games: np.ndarray

    @classmethod
    def of(cls, records: Sequence[GameRecord], labels: Sequence[str]) -> PairScores:
        """Each game counted for its two agents; a game of more or fewer is refused."""
        index = {label: i for i, label in enumerate(labels)}
        totals: defaultdict[tuple[int, int], list[float]] = defaultdict(lambda: [0.0, 0.0])
        for record in records:
            sides = sorted(set(record.seats), key=index.__getitem__)
            if len(sides) != 2:
                raise ValueError(f"a game of {len(sides)} agents ({sides}); a rating needs two")
            entry = totals[index[sides[0]], index[sides[1]]]
            entry[0] += SCORE[record.side_outcome(sides[0])]
            entry[1] += 1
        keys = sorted(totals)  # the same arrays, and simulations, in any order of games
        return cls(
            first=np.array([key[0] for key in keys], dtype=int),
            second=np.array([key[1] for key in keys], dtype=int),
            points=np.array([totals[key][0] for key in keys]),
            games=np.array([totals[key][1] for key in keys]),
        )


def elo_ratings(
    records: Sequence[GameRecord],
    labels: Sequence[str],
    *,
    anchor: str | None = None,
    samples: int = BOOTSTRAP_SAMPLES,
    seed: int = 0,
) -> list[EloRating]:
    """Every agent's Elo rating and its 95% interval, best first (see the module
    docstring); ``seed`` seeds the simulation, so a ladder's intervals are reproducible."""
    scores = PairScores.of(records, labels)
    fixed = None if anchor is None else list(labels).index(anchor)
    size = len(labels)
    estimate = _fit(scores, scores.points, size, fixed)
    expected = 1 / (1 + 10 ** ((estimate[scores.second] - estimate[scores.first]) / 400))
    simulated = np.random.default_rng(seed).binomial(
        scores.games.astype(int), expected, size=(samples, len(scores.games))
    )
    refitted = np.array([_fit(scores, points, size, fixed) for points in simulated])
    refitted = refitted if samples else estimate[None, :]
    low, high = np.percentile(refitted, [2.5, 97.5], axis=0)
    order = sorted(range(size), key=lambda i: -estimate[i])
    ratings = []
    for place, i in enumerate(order):
        rating = EloRating(labels[i], float(estimate[i]), (float(low[i]), float(high[i])))
        if place + 1 < size:
            below = order[place + 1]
            gaps = refitted[:, i] - refitted[:, below]
            gap_low, gap_high = np.percentile(gaps, [2.5, 97.5])
            rating = replace(
                rating,
                gap_to_next=float(estimate[i] - estimate[below]),
                gap_ci95=(float(gap_low), float(gap_high)),
            )
        ratings.append(rating)
    return ratings


def _fit(scores: PairScores, points: np.ndarray, size: int, fixed: int | None) -> np.ndarray:
    """Elo ratings maximising the likelihood of ``points`` (the first agents' scores of
    ``scores``' pairs), by Newton's method on the log strengths: with the prior the
    log-likelihood is concave with a finite maximum."""
    score = np.zeros((size, size))
    played = np.zeros((size, size))
    np.add.at(score, (scores.first, scores.second), points)
    np.add.at(score, (scores.second, scores.first), scores.games - points)
    np.add.at(played, (scores.first, scores.second), scores.games)
    played += played.T
    prior = PRIOR_DRAWS * (played > 0)
    score += prior / 2
    played += prior
    free = [i for i in range(size) if i != (0 if fixed is None else fixed)]
    theta = np.zeros(size)
    for _ in range(MAX_NEWTON_STEPS):
        expected = 1 / (1 + np.exp(theta[None, :] - theta[:, None]))  # i's score against j
        gradient = (score - played * expected).sum(axis=1)
        weight = played * expected * expected.T
        hessian = weight - np.diag(weight.sum(axis=1))
        step = np.linalg.solve(hessian[np.ix_(free, free)], -gradient[free])
        theta[free] += np.clip(step, -MAX_STEP, MAX_STEP)
        if np.abs(step).max() < 1e-9:
            break
    if fixed is None:
        theta -= theta.mean()
    return theta * ELO_PER_NAT
