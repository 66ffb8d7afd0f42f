"""A maskable actor-critic policy whose action distribution spans the legal actions only.

sb3-contrib's maskable policy computes a logit for every action of the space and normalises
over all of them, the masked ones set to -1e8. In a game with 13,219 action ids of which a
few dozen are legal at a time (HKK), those full-width operations (the output layer, three
normalisations per distribution, the softmax, the entropy and sampling, each forward and
backward) were most of PPO's time. ``LegalActionsPolicy`` has the same layers and weights
(``action_net`` is the same ``Linear``), so files and checkpoints are interchangeable, and
the same distribution: a masked action's probability is exactly 0 here, as ``exp(-1e8)`` is
in float32 there. Only the legal actions' rows of ``action_net`` are multiplied out.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import torch
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

ActionScores = Callable[[torch.Tensor, torch.Tensor | None], torch.Tensor]
"""(actor latent, action ids (rows, n) or None) -> the logits of those actions (rows, n), or
of every action of the space (rows, actions) for None."""

_FILLER_LOGIT = -1e30
"""The logit of a padding slot (rows have different numbers of legal actions): its
probability is exactly 0 after the softmax."""


class LegalActionsDistribution:
    """A categorical distribution per row, over that row's legal actions.

    The policy builds it from the actor's latent output; ``apply_masking`` (called by the
    policy before anything else, as sb3-contrib's policy does) picks the legal actions.
    Without a mask (``apply_masking`` not called, or called with None) every action is
    legal.
    """

    def __init__(self, latent: torch.Tensor, scores: ActionScores) -> None:
        self._latent = latent
        self._scores = scores
        self._legal = torch.empty(0, dtype=torch.long)
        """(rows, width) action ids; a row's legal actions first, padding after them."""
        self._valid = torch.empty(0, dtype=torch.bool)
        """Which slots of ``_legal`` hold a legal action (not padding)."""
        self._log_probs: torch.Tensor | None = None
        """Log-probabilities of ``_legal``'s slots; None until ``apply_masking``."""

    def apply_masking(self, masks: np.ndarray | torch.Tensor | None) -> None:
        rows = self._latent.shape[0]
        if masks is None:
            logits = self._scores(self._latent, None)
            self._legal = torch.arange(logits.shape[1]).expand(rows, -1)
            self._valid = torch.ones_like(self._legal, dtype=torch.bool)
            self._log_probs = torch.log_softmax(logits, dim=1)
            return
        mask = torch.as_tensor(masks, dtype=torch.bool).reshape(rows, -1)
        self._legal, self._valid = _legal_slots(mask)
        logits = self._scores(self._latent, self._legal)
        self._log_probs = torch.log_softmax(logits.masked_fill(~self._valid, _FILLER_LOGIT), 1)

    def _slot_log_probs(self) -> torch.Tensor:
        if self._log_probs is None:
            self.apply_masking(None)
        assert self._log_probs is not None
        return self._log_probs

    def log_prob(self, actions: torch.Tensor) -> torch.Tensor:
        """Log-probability of each row's action; an action the mask forbids is an error (a
        dense masked distribution would give it about -1e8 and train on it silently)."""
        log_probs = self._slot_log_probs()
        actions = actions.long().reshape(-1, 1)
        matches = (self._legal == actions) & self._valid
        found = matches.any(dim=1)
        if not bool(found.all()):
            row = int((~found).nonzero()[0, 0])
            raise ValueError(f"action {int(actions[row, 0])} is not legal in row {row}")
        return log_probs.gather(1, matches.to(torch.int8).argmax(1, keepdim=True))[:, 0]

    def entropy(self) -> torch.Tensor:
        log_probs = self._slot_log_probs()
        terms = log_probs.exp() * log_probs
        return -torch.where(self._valid, terms, torch.zeros_like(terms)).sum(dim=1)

    def sample(self) -> torch.Tensor:
        slots = torch.multinomial(self._slot_log_probs().exp(), 1)  # before _legal: sets it
        return self._legal.gather(1, slots)[:, 0]

    def mode(self) -> torch.Tensor:
        slots = self._slot_log_probs().argmax(1, keepdim=True)  # before _legal: sets it
        return self._legal.gather(1, slots)[:, 0]

    def get_actions(self, deterministic: bool = False) -> torch.Tensor:
        return self.mode() if deterministic else self.sample()


def _legal_slots(mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Each row's legal action ids packed to the left of a (rows, most legal) tensor, and
    which of its slots are real."""
    counts = mask.sum(dim=1)
    if bool((counts == 0).any()):
        raise ValueError("an action mask allows no action")
    rows, actions = mask.nonzero(as_tuple=True)
    starts = torch.cumsum(counts, 0) - counts
    slots = torch.arange(rows.shape[0]) - starts[rows]
    shape = (mask.shape[0], int(counts.max()))
    legal = torch.zeros(shape, dtype=torch.long)
    legal[rows, slots] = actions
    valid = torch.zeros(shape, dtype=torch.bool)
    valid[rows, slots] = True
    return legal, valid


class LegalActionsPolicy(MaskableActorCriticPolicy):
    """sb3-contrib's maskable actor-critic with ``LegalActionsDistribution``."""

    def _get_action_dist_from_latent(self, latent_pi: torch.Tensor) -> Any:
        return LegalActionsDistribution(latent_pi, self.action_scores)

    def action_scores(self, latent: torch.Tensor, actions: torch.Tensor | None) -> torch.Tensor:
        """The logits of ``actions`` (ids, a row of them per latent row), or of every
        action: only the asked actions' rows of ``action_net`` are multiplied out."""
        if actions is None:
            return self.action_net(latent)
        weight = self.action_net.weight[actions]
        return torch.einsum("rwh,rh->rw", weight, latent) + self.action_net.bias[actions]
