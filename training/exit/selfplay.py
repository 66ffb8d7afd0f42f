"""Expert iteration's self-play: games in which the learner's network-guided search makes
the learner's moves and each of its decisions becomes a training row.

The learner is an ``Agent`` (``SearchingLearner``), so a game is ``agents.play_game`` with
it at its seats and opponents from the pool at the others, exactly as evaluation plays.
Each decision's search tree is built for that decision and dropped with it: only the
visit counts at the root are kept.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from tabletop.agents import Agent
from tabletop.agents.base import play_game
from tabletop.agents.guided import GuidedSearch, GuidedSettings, NetworkEvaluator
from tabletop.agents.outcome import outcome
from tabletop.envs.core.protocol import Encoder, Game, State
from tabletop.training.config import ExItSettings
from tabletop.training.exit.buffer import SearchRows


def guided_settings(options: ExItSettings) -> GuidedSettings:
    """The search of self-play: root noise on, moves drawn with ``options.temperature``,
    leaves valued as ``options`` say (the network, or the network and a rollout)."""
    return GuidedSettings(
        iterations=options.iterations,
        c_puct=options.c_puct,
        dirichlet_alpha=options.dirichlet_alpha,
        dirichlet_fraction=options.dirichlet_fraction,
        batch=options.search_batch,
        temperature=options.temperature,
        rollout=options.rollout or None,
        mix=options.mix,
        depth=options.depth or None,
    )


@dataclass
class Decision:
    observation: np.ndarray
    shares: dict[int, float]
    """The policy target of every legal action (``policy_target``): its visit share, or
    sharpened."""
    seat: int


@dataclass
class SearchingLearner:
    """Plays with the search and records every decision: during the first
    ``temperature_moves`` of its decisions in a game it draws its moves by the visits
    (``exploring``), then it takes the most visited (``settled``)."""

    exploring: GuidedSearch
    settled: GuidedSearch
    encoder: Encoder
    temperature_moves: int
    target_temperature: float
    decisions: list[Decision] = field(default_factory=list)

    def reset(self) -> None:
        """A new game: its decisions start afresh."""
        self.decisions = []

    def act(self, state: State, player: int) -> int:
        search = self.exploring if len(self.decisions) < self.temperature_moves else self.settled
        result = search.search(state, player)
        shares = policy_target(result.visits, state.legal_actions(), self.target_temperature)
        self.decisions.append(Decision(self.encoder.encode(state, player), shares, player))
        return result.action


def policy_target(visits: dict[int, int], legal: list[int], temperature: float) -> dict[int, float]:
    """Each legal action's share of ``visits ** (1 / temperature)``; temperature 0: the most
    visited action(s), sharing the whole target equally."""
    counts = np.asarray([visits.get(action, 0) for action in legal], np.float64)
    if temperature == 0:
        weights = (counts == counts.max()).astype(np.float64)
    else:
        weights = (counts / counts.max()) ** (1.0 / temperature)  # scaled: no overflow
    weights /= weights.sum()
    return dict(zip(legal, weights.tolist(), strict=True))


def searching_learner(
    policy: Any, encoder: Encoder, game: Game, options: ExItSettings, seed: int
) -> SearchingLearner:
    """The learner's searches, reading ``policy`` for priors and values: a copy of its
    weights as they stand (numpy where it can: faster), for the games of one iteration."""
    evaluator = NetworkEvaluator.of_policy(policy, encoder, game, snapshot=True)
    exploring = guided_settings(options)
    settled = replace(exploring, temperature=0.0)
    return SearchingLearner(
        GuidedSearch(evaluator, exploring, seed=seed),
        GuidedSearch(evaluator, settled, seed=seed + 1),
        encoder,
        options.temperature_moves,
        options.target_temperature,
    )


@dataclass(frozen=True)
class PlayedGame:
    rows: SearchRows | None
    """The learner's decisions (None if it had none: the game ended before its turn)."""
    info: dict[str, Any]
    """What ``RunProgress.count_game`` takes, as a PPO learner env's last ``info``."""


def play_training_game(
    state: State,
    learner: SearchingLearner,
    seat_agents: Sequence[Agent | None],
    opponent: str,
    seat: int,
    cooperative: bool,
) -> PlayedGame:
    """Play ``state`` to the end, the learner at every seat whose ``seat_agents`` entry is
    None; ``seat`` is the seat whose outcome the game counts as (any of the learner's).
    Value targets: each decision's seat's final return, the team's mean in a cooperative
    game."""
    agents = [learner if agent is None else agent for agent in seat_agents]
    play_game(state, agents)
    returns = [float(r) for r in state.returns()]
    team = sum(returns) / len(returns)
    decisions = learner.decisions
    rows = None
    if decisions:
        rows = SearchRows.of_decisions(
            [d.observation for d in decisions],
            [d.shares for d in decisions],
            [team if cooperative else returns[d.seat] for d in decisions],
        )
    info = {
        "outcome": outcome(returns, seat, cooperative=cooperative),
        "opponent": opponent,
        "seat": seat,
        "returns": returns,
        "stats": dict(state.stats()),
    }
    return PlayedGame(rows, info)
