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

from collections.abc import Callable, Sequence
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
class SparseRows:
    """Rows of a wide, mostly zero matrix kept as their non-zero entries (compressed rows).

    Observations and legal-action flags are wide and sparse: an HKK decision's flat
    observation has about 200 non-zeros of 10,873 numbers and a handful of its 13,219
    actions are legal, so a dense row costs 57 kB and a sparse one about 2 kB. Kept dense,
    a warm start of a few hundred games would fill the memory; batches are made dense
    only when they are trained on."""

    indptr: np.ndarray
    """Row ``i``'s entries are ``indices[indptr[i]:indptr[i + 1]]`` (int64, one more than rows)."""
    indices: np.ndarray
    values: np.ndarray
    width: int

    @classmethod
    def from_dense(cls, rows: Sequence[np.ndarray], width: int, dtype: Any) -> SparseRows:
        """The rows ``rows`` (arrays of ``width`` numbers, flattened: an entity encoder's
        observation is 2-D), exactly, values as ``dtype``."""
        rows = [np.ravel(row) for row in rows]
        where = [np.flatnonzero(row) for row in rows]
        lengths = np.fromiter((len(nonzero) for nonzero in where), np.int64, len(where))
        values = [row[nonzero] for row, nonzero in zip(rows, where, strict=True)]
        return cls(
            indptr=np.concatenate(([0], np.cumsum(lengths))).astype(np.int64),
            indices=np.concatenate([np.zeros(0, np.int64), *where]).astype(np.int32),
            values=np.concatenate([np.zeros(0, dtype), *values]).astype(dtype),
            width=width,
        )

    @classmethod
    def joined(cls, *parts: SparseRows) -> SparseRows:
        """The rows of ``parts`` one after the other."""
        ends = np.cumsum([len(part.indices) for part in parts])
        pointers = [
            part.indptr[:-1] + end - len(part.indices)
            for part, end in zip(parts, ends, strict=True)
        ]
        return cls(
            indptr=np.concatenate([*pointers, ends[-1:]]).astype(np.int64),
            indices=np.concatenate([part.indices for part in parts]),
            values=np.concatenate([part.values for part in parts]),
            width=parts[0].width,
        )

    def __len__(self) -> int:
        return len(self.indptr) - 1

    def part(self, rows: slice) -> SparseRows:
        """The contiguous rows ``rows`` (a slice with step 1)."""
        start, stop, _ = rows.indices(len(self))
        stop = max(start, stop)
        first, last = self.indptr[start], self.indptr[stop]
        return SparseRows(self.indptr[start : stop + 1] - first, self.indices[first:last],
                          self.values[first:last], self.width)  # fmt: skip

    def dense(self, index: np.ndarray | None = None) -> np.ndarray:
        """The rows ``index`` (all rows without it) as a dense 2-D array."""
        index = np.arange(len(self)) if index is None else np.asarray(index)
        starts, ends = self.indptr[index], self.indptr[index + 1]
        lengths = ends - starts
        rows = np.repeat(np.arange(len(index)), lengths)
        firsts = np.repeat(starts - np.cumsum(lengths) + lengths, lengths)
        entries = firsts + np.arange(lengths.sum())
        out = np.zeros((len(index), self.width), dtype=self.values.dtype)
        out[rows, self.indices[entries]] = self.values[entries]
        return out


@dataclass(frozen=True)
class Demonstrations:
    """The teacher's decisions, one row each, from the mover's seat."""

    observations: SparseRows
    masks: SparseRows
    """Legal actions, a bool row per decision."""
    actions: np.ndarray
    returns: np.ndarray
    """The mover's discounted return from the decision on (value targets)."""
    observation_shape: tuple[int, ...]
    """The encoder's shape of one observation, which ``rows`` restores from the flat rows."""

    def __len__(self) -> int:
        return len(self.actions)

    @classmethod
    def joined(cls, *parts: Demonstrations) -> Demonstrations:
        """The rows of ``parts`` one after the other."""
        return cls(
            observations=SparseRows.joined(*(part.observations for part in parts)),
            masks=SparseRows.joined(*(part.masks for part in parts)),
            actions=np.concatenate([part.actions for part in parts]),
            returns=np.concatenate([part.returns for part in parts]),
            observation_shape=parts[0].observation_shape,
        )

    def part(self, rows: slice) -> Demonstrations:
        """The contiguous rows ``rows`` (views, not copies)."""
        return Demonstrations(self.observations.part(rows), self.masks.part(rows),
                              self.actions[rows], self.returns[rows],
                              self.observation_shape)  # fmt: skip

    def rows(self, index: np.ndarray) -> tuple[torch.Tensor, ...]:
        """The tensors of the rows ``index``, as the policy takes them."""
        return (
            torch.as_tensor(
                self.observations.dense(index).reshape(len(index), *self.observation_shape)
            ),
            torch.as_tensor(self.actions[index]),
            torch.as_tensor(self.masks.dense(index)),
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
    parts: list[Demonstrations] = []
    split = 0
    for index in range(games):
        if index == games - held_out:
            split = sum(len(part) for part in parts)
        movers = {index % game.num_players: learner} if learner is not None else {}
        parts.append(_one_game(game.new_state(seed + index), teacher, encoder, gamma, movers))
    demos = Demonstrations.joined(*parts)
    return demos, split if held_out else len(demos)


def _one_game(
    state: State, teacher: Agent, encoder: Encoder, gamma: float, movers: dict[int, Actor]
) -> Demonstrations:
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
    shape = tuple(encoder.shape(state.game))
    return Demonstrations(
        observations=SparseRows.from_dense(observations, int(np.prod(shape)), np.float32),
        masks=SparseRows.from_dense(masks, num_actions, bool),
        actions=np.asarray(actions, dtype=np.int64),
        returns=np.asarray(_discounted(rewards, seats, gamma), dtype=np.float32),
        observation_shape=shape,
    )


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
