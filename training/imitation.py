"""Imitation before reinforcement: a run may start by copying the game's heuristic.

Against a strong rule-based opponent, a learner starting from random weights loses every
game, so the ±1 tells it nothing about how to win; it first has to stumble on a win. A few
minutes of behaviour cloning (the heuristic plays every seat; the policy head learns its
choices by cross-entropy over the legal actions, the value head the mover's discounted
return from each decision on) start PPO from a policy that already plays like the
heuristic and a value function that already knows what such play is worth. PPO then has
to improve on its teacher rather than discover the game. Off unless ``imitation.games``
is set (training/configs.toml).

A copy trained only on the teacher's own games has never seen the positions its own
mistakes lead to, so its errors compound over a game. ``imitation.dagger_rounds`` adds
DAgger rounds: the copy plays one seat of ``dagger_games`` games against the teacher
(seats taking turns, its moves sampled as PPO will sample them), the teacher labels every
decision, the copy's included, and the policy trains again on everything gathered so far.

Returns are counted as ``SingleAgentEnv`` delivers them to a learner in that seat: a
decision's reward is what the seat earned from that decision until its next one, and what
it earned before its first decision comes with the first.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import torch
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

from tabletop import envs
from tabletop.agents import Agent
from tabletop.envs.core.protocol import Encoder, State

HELD_OUT_SHARE = 0.1
"""Share of the games kept out of training to measure how often the policy agrees with its
teacher on positions it has not seen."""
MAX_GRAD_NORM = 0.5
"""Gradient clipping, as PPO's own default."""


@dataclass(frozen=True)
class Demonstrations:
    """The teacher's decisions, one row each, from the mover's seat."""

    observations: np.ndarray
    masks: np.ndarray
    """Legal actions, a bool row per decision."""
    actions: np.ndarray
    returns: np.ndarray
    """The mover's discounted return from the decision on (value targets)."""

    def __len__(self) -> int:
        return len(self.actions)

    @classmethod
    def joined(cls, *parts: Demonstrations) -> Demonstrations:
        """The rows of ``parts`` one after the other."""
        columns = zip(*(part.columns() for part in parts), strict=True)
        return cls(*(np.concatenate(column) for column in columns))

    def columns(self) -> tuple[np.ndarray, ...]:
        """The four columns, in field order."""
        return self.observations, self.masks, self.actions, self.returns

    def part(self, rows: slice) -> Demonstrations:
        """The rows ``rows`` (views, not copies)."""
        return Demonstrations(*(column[rows] for column in self.columns()))

    def rows(self, index: np.ndarray) -> tuple[torch.Tensor, ...]:
        """The tensors of the rows ``index``, as the policy takes them."""
        return (
            torch.as_tensor(self.observations[index]),
            torch.as_tensor(self.actions[index]),
            torch.as_tensor(self.masks[index]),
            torch.as_tensor(self.returns[index]),
        )


@dataclass(frozen=True)
class ImitationResult:
    """How the warm start went: written to the run directory and printed."""

    games: int
    decisions: int
    epochs: int
    policy_loss: float
    """Mean cross-entropy over the last epoch's training rows."""
    value_loss: float
    """Mean squared error of the value head over the last epoch's training rows."""
    held_out_agreement: float
    """How often the policy's most likely legal action is the teacher's, on held-out games."""
    seconds: float
    dagger_rounds: int = 0
    dagger_games: int = 0
    """Games of each DAgger round; ``decisions`` counts their rows too."""


Actor = Callable[[np.ndarray, np.ndarray], int]
"""Who moves for a seat in a DAgger game: observation and legal-action mask to an action."""


def collect(
    game_name: str, env_options: dict[str, Any], encoder: Encoder, games: int, seed: int,
    gamma: float, learner: Actor | None = None,
) -> tuple[Demonstrations, int]:  # fmt: skip
    """``games`` games on deals ``seed``, ``seed + 1`` …, the heuristic at every seat, or,
    given a ``learner``, the learner at seat ``game index % players`` (the heuristic
    labelling its decisions too); the demonstrations and where the held-out games' rows
    begin (the last ``HELD_OUT_SHARE`` of the games, at least one when there are two or
    more; none in DAgger games, whose purpose is training rows)."""
    game = envs.make_game(game_name, **env_options)
    teacher = envs.spec(game_name).heuristic(seed)
    held_out = max(1, round(games * HELD_OUT_SHARE)) if games > 1 and learner is None else 0
    columns: tuple[list, list, list, list] = ([], [], [], [])
    split = 0
    for index in range(games):
        if index == games - held_out:
            split = len(columns[2])
        movers = {index % game.num_players: learner} if learner is not None else {}
        rows = _one_game(game.new_state(seed + index), teacher, encoder, gamma, movers)
        for column, part in zip(columns, rows, strict=True):
            column.extend(part)
    if held_out == 0:
        split = len(columns[2])
    observations, masks, actions, returns = columns
    demos = Demonstrations(
        observations=np.asarray(observations, dtype=np.float32),
        masks=np.asarray(masks, dtype=bool),
        actions=np.asarray(actions, dtype=np.int64),
        returns=np.asarray(returns, dtype=np.float32),
    )
    return demos, split


def _one_game(
    state: State, teacher: Agent, encoder: Encoder, gamma: float, movers: dict[int, Actor]
) -> tuple[list, ...]:
    """One game's rows, in order of play: every decision labelled with the teacher's
    action, and played with it unless ``movers`` names another actor for the seat."""
    teacher.reset()
    num_actions = state.game.num_actions
    observations, masks, actions, seats = [], [], [], []
    rewards: list[float] = []
    last_decision: dict[int, int] = {}
    unclaimed = [0.0] * state.game.num_players
    while not state.is_terminal():
        seat = state.current_player
        mask = np.zeros(num_actions, dtype=bool)
        mask[state.legal_actions()] = True
        observation = encoder.encode(state, seat)
        label = teacher.act(state, seat)
        observations.append(observation)
        masks.append(mask)
        actions.append(label)
        seats.append(seat)
        rewards.append(unclaimed[seat])
        unclaimed[seat] = 0.0
        last_decision[seat] = len(rewards) - 1
        state.apply(movers[seat](observation, mask) if seat in movers else label)
        for player, reward in enumerate(state.rewards()):
            if player in last_decision:
                rewards[last_decision[player]] += reward
            else:
                unclaimed[player] += reward
    return observations, masks, actions, _discounted(rewards, seats, gamma)


def _discounted(rewards: list[float], movers: list[int], gamma: float) -> list[float]:
    """Each decision's return: its reward plus ``gamma`` times the mover's next return."""
    returns = [0.0] * len(rewards)
    following: dict[int, float] = {}
    for index in range(len(rewards) - 1, -1, -1):
        seat = movers[index]
        returns[index] = following[seat] = rewards[index] + gamma * following.get(seat, 0.0)
    return returns


def imitate(
    policy: MaskableActorCriticPolicy, training: Demonstrations, held_out: Demonstrations, *,
    epochs: int, batch_size: int, learning_rate: float, vf_coef: float, seed: int,
) -> tuple[float, float, float]:  # fmt: skip
    """Train ``policy`` on ``training``; returns the last epoch's mean policy and value
    losses and the agreement with the teacher on ``held_out``."""
    optimizer = torch.optim.Adam(policy.parameters(), lr=learning_rate)
    generator = np.random.default_rng(seed)
    policy.set_training_mode(True)
    policy_loss = value_loss = float("nan")
    for _ in range(epochs):
        policy_loss, value_loss = _epoch(policy, training, generator.permutation(len(training)),
                                         optimizer, batch_size, vf_coef)  # fmt: skip
    policy.set_training_mode(False)
    return policy_loss, value_loss, agreement(policy, held_out, np.arange(len(held_out)))


def _epoch(
    policy: MaskableActorCriticPolicy, demos: Demonstrations, order: np.ndarray,
    optimizer: torch.optim.Optimizer, batch_size: int, vf_coef: float,
) -> tuple[float, float]:  # fmt: skip
    policy_total = value_total = 0.0
    for start in range(0, len(order), batch_size):
        index = order[start : start + batch_size]
        observations, actions, masks, returns = demos.rows(index)
        values, log_prob, _ = policy.evaluate_actions(observations, actions, action_masks=masks)
        policy_loss = -log_prob.mean()
        value_loss = torch.nn.functional.mse_loss(values.flatten(), returns)
        optimizer.zero_grad()
        (policy_loss + vf_coef * value_loss).backward()
        torch.nn.utils.clip_grad_norm_(policy.parameters(), MAX_GRAD_NORM)
        optimizer.step()
        policy_total += policy_loss.item() * len(index)
        value_total += value_loss.item() * len(index)
    return policy_total / max(1, len(order)), value_total / max(1, len(order))


def agreement(policy: MaskableActorCriticPolicy, demos: Demonstrations, index: np.ndarray) -> float:
    """Share of the rows ``index`` where the policy's most likely legal action is the
    teacher's (NaN for no rows)."""
    if len(index) == 0:
        return float("nan")
    observations, actions, masks, _ = demos.rows(index)
    with torch.no_grad():
        chosen = policy.get_distribution(observations, action_masks=masks).mode()
    return float((chosen == actions).float().mean())


def sampling_actor(policy: MaskableActorCriticPolicy) -> Actor:
    """The policy as a DAgger mover: an action sampled from its legal-action distribution."""

    def act(observation: np.ndarray, mask: np.ndarray) -> int:
        with torch.no_grad():
            distribution = policy.get_distribution(
                torch.as_tensor(observation[None]), action_masks=mask[None]
            )
            return int(distribution.sample()[0])

    return act
