"""Expert iteration's training rows: what the search decided at each learner decision, kept
in a replay buffer of bounded size, and the loss that fits the network to them.

A row is the mover's observation, the legal actions with the share of the search's visits
each got (the policy target, sharpened by ``exit.target_temperature``), and the return the
mover's seat (the team, in a cooperative game) finished the game with (the value target).
Observations are kept as sparse rows (``imitation.SparseRows``), as the warm start keeps its
demonstrations, and so are the visit shares: their entries are the legal action ids,
ascending, so a batch needs no row as wide as the action space.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, fields

import numpy as np
import torch
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

from tabletop.training.imitation import MAX_GRAD_NORM, SparseRows

PADDING_LOGIT = -1e30
"""The logit of a padding slot of a batch (rows have different numbers of legal actions):
its probability is exactly 0, and its log-probability times its share (0) is 0."""


@dataclass(frozen=True)
class SearchRows:
    """Learner decisions, one row each, in order of play."""

    observations: SparseRows
    choices: SparseRows
    """Per row: ``indices`` the legal action ids, ascending; ``values`` their visit shares
    (zeros kept: a legal action the search never tried is still a choice it turned down)."""
    returns: np.ndarray
    """The mover's final return (float32): the value target."""

    def __len__(self) -> int:
        return len(self.returns)

    @classmethod
    def of_decisions(
        cls, observations: Sequence[np.ndarray], choices: Sequence[dict[int, float]],
        returns: Sequence[float],
    ) -> SearchRows:  # fmt: skip
        """Rows from each decision's observation, visit shares by legal action and return."""
        width = int(np.prod(observations[0].shape))
        ids = [np.asarray(sorted(shares), np.int32) for shares in choices]
        lengths = np.fromiter((len(row) for row in ids), np.int64, len(ids))
        values = [
            np.asarray([shares[a] for a in row], np.float32)
            for row, shares in zip(ids, choices, strict=True)
        ]
        return cls(
            observations=SparseRows.from_dense(observations, width, np.float32),
            choices=SparseRows(
                indptr=np.concatenate(([0], np.cumsum(lengths))).astype(np.int64),
                indices=np.concatenate(ids),
                values=np.concatenate(values),
                width=0,  # unused: a choice row is never made dense
            ),
            returns=np.asarray(returns, np.float32),
        )

    @classmethod
    def joined(cls, parts: Sequence[SearchRows]) -> SearchRows:
        return cls(
            observations=SparseRows.joined(*(part.observations for part in parts)),
            choices=SparseRows.joined(*(part.choices for part in parts)),
            returns=np.concatenate([part.returns for part in parts]),
        )

    def part(self, rows: slice) -> SearchRows:
        return SearchRows(self.observations.part(rows), self.choices.part(rows), self.returns[rows])

    def batch(self, index: np.ndarray, observation_shape: tuple[int, ...]) -> Batch:
        """The tensors of the rows ``index``: observations in the encoder's shape, and each
        row's legal actions and shares padded to the widest row."""
        observations = self.observations.dense(index).reshape(len(index), *observation_shape)
        starts = self.choices.indptr[index]
        lengths = self.choices.indptr[index + 1] - starts
        slots = np.arange(int(lengths.max()))
        valid = slots[None, :] < lengths[:, None]
        entries = np.where(valid, starts[:, None] + slots[None, :], 0)
        return Batch(
            observations=torch.as_tensor(observations),
            actions=torch.as_tensor(np.where(valid, self.choices.indices[entries], 0)).long(),
            shares=torch.as_tensor(np.where(valid, self.choices.values[entries], 0.0)),
            valid=torch.as_tensor(valid),
            returns=torch.as_tensor(self.returns[index]),
        )

    def to_tensors(self) -> dict[str, torch.Tensor]:
        """The rows as tensors, for a checkpoint that ``torch.load(weights_only=True)`` reads."""
        tensors = {"returns": torch.as_tensor(self.returns)}
        for name in ("observations", "choices"):
            rows: SparseRows = getattr(self, name)
            for item in fields(SparseRows):
                if item.name != "width":
                    tensors[f"{name}.{item.name}"] = torch.as_tensor(getattr(rows, item.name))
        return tensors

    @classmethod
    def from_tensors(cls, tensors: dict[str, torch.Tensor], width: int) -> SearchRows:
        """``to_tensors``'s rows again; ``width`` is the observation's size."""

        def sparse(name: str, row_width: int) -> SparseRows:
            parts = ("indptr", "indices", "values")
            return SparseRows(*(tensors[f"{name}.{part}"].numpy() for part in parts), row_width)

        return cls(sparse("observations", width), sparse("choices", 0), tensors["returns"].numpy())


@dataclass(frozen=True)
class Batch:
    observations: torch.Tensor
    actions: torch.Tensor
    """(rows, widest) legal action ids; padding slots hold 0."""
    shares: torch.Tensor
    """(rows, widest) visit shares; 0 in padding slots."""
    valid: torch.Tensor
    """(rows, widest): which slots hold a legal action."""
    returns: torch.Tensor


class ReplayBuffer:
    """The most recent ``capacity`` decisions, kept game by game: a new game's rows push
    out the oldest (the oldest game is cut, not the new one, if it only partly has to go)."""

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self.games: deque[SearchRows] = deque()
        self.size = 0

    def add(self, rows: SearchRows) -> None:
        self.games.append(rows)
        self.size += len(rows)
        while self.size > self.capacity:
            excess = self.size - self.capacity
            oldest = self.games[0]
            if len(oldest) <= excess:
                self.games.popleft()
                self.size -= len(oldest)
            else:
                self.games[0] = oldest.part(slice(excess, None))
                self.size -= excess

    def rows(self) -> SearchRows:
        return SearchRows.joined(list(self.games))

    def to_tensors(self) -> dict[str, torch.Tensor]:
        """The buffer for a checkpoint: its rows and where each game's begin."""
        lengths = torch.as_tensor([len(game) for game in self.games], dtype=torch.int64)
        return {"game_lengths": lengths, **(self.rows().to_tensors() if self.games else {})}

    def load_tensors(self, tensors: dict[str, torch.Tensor], width: int) -> None:
        """Refill the buffer with ``to_tensors``'s games."""
        self.games.clear()
        self.size = 0
        lengths = tensors["game_lengths"].tolist()
        if not lengths:
            return
        rows = SearchRows.from_tensors(tensors, width)
        start = 0
        for length in lengths:
            self.add(rows.part(slice(start, start + length)))
            start += length


def policy_log_probs(policy: MaskableActorCriticPolicy, batch: Batch) -> torch.Tensor:
    """The policy's log-probabilities of each row's legal actions (``batch.actions``),
    normalised over them alone, as the masked distribution the agents play from."""
    features = policy.extract_features(batch.observations, policy.pi_features_extractor)
    latent = policy.mlp_extractor.forward_actor(features)
    logits = policy.action_scores(latent, batch.actions).masked_fill(~batch.valid, PADDING_LOGIT)
    return torch.log_softmax(logits, dim=1)


def visit_loss(policy: MaskableActorCriticPolicy, batch: Batch) -> torch.Tensor:
    """Mean cross-entropy from the visit shares to the policy's legal-action distribution:
    least (the shares' entropy) when the policy plays each legal action as often as the
    search visited it."""
    return -(batch.shares * policy_log_probs(policy, batch)).sum(dim=1).mean()


def value_loss(policy: MaskableActorCriticPolicy, batch: Batch) -> torch.Tensor:
    """Mean squared error of the value head against the final returns."""
    values = policy.predict_values(batch.observations).flatten()
    return torch.nn.functional.mse_loss(values, batch.returns)


@dataclass(frozen=True)
class FitResult:
    policy_loss: float
    """Mean cross-entropy over the fit's batches."""
    value_loss: float
    """Mean squared error over the fit's batches."""


def fit(
    policy: MaskableActorCriticPolicy, optimizer: torch.optim.Optimizer, rows: SearchRows,
    observation_shape: tuple[int, ...], *, batches: int, batch_size: int, value_weight: float,
    generator: np.random.Generator,
) -> FitResult:  # fmt: skip
    """``batches`` batches of ``batch_size`` rows drawn uniformly from ``rows``, gradients
    clipped as the warm start's; the policy is left in evaluation mode, as the search reads
    it. A fixed number of batches, not passes over the buffer: each decision is then fitted
    about as often however full the buffer is (``ExItSettings.replay_ratio``)."""
    policy.set_training_mode(True)
    policy_total = value_total = 0.0
    for _ in range(batches):
        batch = rows.batch(generator.integers(0, len(rows), batch_size), observation_shape)
        policy_part, value_part = visit_loss(policy, batch), value_loss(policy, batch)
        optimizer.zero_grad()
        (policy_part + value_weight * value_part).backward()
        torch.nn.utils.clip_grad_norm_(policy.parameters(), MAX_GRAD_NORM)
        optimizer.step()
        policy_total += policy_part.item()
        value_total += value_part.item()
    policy.set_training_mode(False)
    return FitResult(policy_total / batches, value_total / batches)
