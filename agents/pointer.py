"""A policy that scores each legal action from the observation rows the action names.

A network with one output per action id learns "play the card in hand slot 3" apart from
"slot 4", from the few positions where each was legal. When the encoder lays cards out as
rows and the game says which rows each action names (``envs.core.structure``), the logit
of an action can instead be one shared function of the position's context, the rows it
names and its own features: the same weights score every slot, target and card. Cloning
HKK's heuristic from 800 games, such a network agreed with it on 95.1% of held-out
decisions, a network with an output per id (layers of 256) on 91.8%, and their copies
won 32% and 21% of their games against the heuristic (training/configs.toml, [hkk]).

The network (``NetworkSpec.rows`` non-empty):

- every card row goes through the same row layers (``rows``), giving one embedding each;
- the context is the numbers outside the rows plus the element-wise maximum of the row
  embeddings, through the ``shared`` layers; the critic reads the context through its
  ``net_arch`` layers;
- an action's logit is the scorer's ``net_arch`` layers applied to (context, embeddings of
  the rows it names, zeros for none, its features), then one output.

It plugs into sb3-contrib's maskable actor-critic: the actor's latent output is the
context and every row's embedding side by side, and ``action_net`` is the scorer, asked
only for the legal actions (``LegalActionsDistribution``).
"""

from __future__ import annotations

from functools import partial
from typing import Any

import numpy as np
import torch
from gymnasium import spaces
from torch import nn

from tabletop.agents.legal_actions import LegalActionsPolicy
from tabletop.envs.core.structure import ActionStructure

ALL_ACTIONS_CHUNK = 1024
"""Actions scored at a time when every action is asked for (no mask): a batch times the
whole action space times the scorer's input would not fit in memory at once."""


def dense_layers(inputs: int, sizes: list[int], activation: type[nn.Module]) -> nn.Sequential:
    """Linear layers of ``sizes``, each followed by ``activation``; none for ``[]``."""
    modules: list[nn.Module] = []
    for size in sizes:
        modules += [nn.Linear(inputs, size), activation()]
        inputs = size
    return nn.Sequential(*modules)


def _width(inputs: int, sizes: list[int]) -> int:
    return sizes[-1] if sizes else inputs


class PointerExtractor(nn.Module):
    """Row embeddings and the context: the actor's latent is both, the critic's the
    context through its own layers (sb3's ``mlp_extractor`` interface)."""

    def __init__(
        self, structure: ActionStructure, row_layers: list[int], shared_layers: list[int],
        critic_layers: list[int], activation: type[nn.Module],
    ) -> None:  # fmt: skip
        super().__init__()
        self.structure = structure
        self.row_net = dense_layers(structure.row_width, row_layers, activation)
        self.row_dim = _width(structure.row_width, row_layers)
        outside = structure.observation_size - structure.rows * structure.row_width
        self.context_net = dense_layers(outside + self.row_dim, shared_layers, activation)
        self.context_dim = _width(outside + self.row_dim, shared_layers)
        self.critic_net = dense_layers(self.context_dim, critic_layers, activation)
        self.latent_dim_pi = self.context_dim + structure.rows * self.row_dim
        self.latent_dim_vf = _width(self.context_dim, critic_layers)

    def _context_and_rows(self, features: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        structure = self.structure
        rows = features[:, structure.rows_at : structure.rows_end]
        embedded = self.row_net(rows.reshape(len(features), structure.rows, structure.row_width))
        outside = (features[:, : structure.rows_at], features[:, structure.rows_end :])
        context = self.context_net(torch.cat([*outside, embedded.amax(dim=1)], dim=1))
        return context, embedded

    def forward(self, features: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        context, embedded = self._context_and_rows(features)
        return torch.cat([context, embedded.flatten(1)], dim=1), self.critic_net(context)

    def forward_actor(self, features: torch.Tensor) -> torch.Tensor:
        context, embedded = self._context_and_rows(features)
        return torch.cat([context, embedded.flatten(1)], dim=1)

    def forward_critic(self, features: torch.Tensor) -> torch.Tensor:
        return self.critic_net(self._context_and_rows(features)[0])


class ActionScorer(nn.Module):
    """The logit of an action from the actor's latent (context, row embeddings) and the
    structure's rows and features of that action."""

    def __init__(
        self, structure: ActionStructure, context_dim: int, row_dim: int,
        hidden: list[int], activation: type[nn.Module],
    ) -> None:  # fmt: skip
        super().__init__()
        self.context_dim, self.row_dim, self.rows = context_dim, row_dim, structure.rows
        self.named_rows = structure.named_rows
        # Not saved with the weights: rebuilt from the game, whose encoder version the
        # policy's metadata pins.
        self.register_buffer("action_rows", torch.tensor(structure.action_rows), False)
        self.register_buffer("action_features", torch.tensor(structure.action_features),
                             False)  # fmt: skip
        inputs = context_dim + structure.named_rows * row_dim + structure.action_features.shape[1]
        self.hidden = dense_layers(inputs, hidden, activation)
        self.out = nn.Linear(_width(inputs, hidden), 1)

    def forward(self, latent: torch.Tensor, actions: torch.Tensor | None) -> torch.Tensor:
        """Logits of ``actions`` ((rows, n) ids), or of every action for None."""
        if actions is None:
            every = torch.arange(len(self.action_rows)).expand(len(latent), -1)
            chunks = every.split(ALL_ACTIONS_CHUNK, dim=1)
            return torch.cat([self(latent, chunk) for chunk in chunks], dim=1)
        context = latent[:, : self.context_dim]
        rows = latent[:, self.context_dim :].reshape(len(latent), self.rows, self.row_dim)
        rows = torch.cat([rows, rows.new_zeros(len(latent), 1, self.row_dim)], dim=1)
        named = self.action_rows[actions].reshape(len(latent), -1, 1)
        picked = rows.gather(1, named.expand(-1, -1, self.row_dim))
        count = actions.shape[1]
        inputs = torch.cat([
            context.unsqueeze(1).expand(-1, count, -1),
            picked.reshape(len(latent), count, self.named_rows * self.row_dim),
            self.action_features[actions],
        ], dim=2)  # fmt: skip
        return self.out(self.hidden(inputs)).squeeze(2)


class PointerPolicy(LegalActionsPolicy):
    """``LegalActionsPolicy`` whose latent and ``action_net`` are the pointer network's."""

    def __init__(
        self, observation_space: spaces.Box, action_space: spaces.Discrete, lr_schedule: Any,
        *, structure: ActionStructure, row_layers: list[int], shared_layers: list[int],
        **kwargs: Any,
    ) -> None:  # fmt: skip
        if observation_space.shape != (structure.observation_size,):
            raise ValueError(
                f"the action structure is for observations of {structure.observation_size} "
                f"numbers, not of shape {observation_space.shape}"
            )
        if int(action_space.n) != structure.num_actions:
            raise ValueError(
                f"the action structure has {structure.num_actions} actions, the action "
                f"space {action_space.n}"
            )
        self.structure = structure
        self.row_layers = list(row_layers)
        self.shared_layers = list(shared_layers)
        super().__init__(observation_space, action_space, lr_schedule, **kwargs)

    def _layer_sizes(self, side: str) -> list[int]:
        arch = self.net_arch
        return list(arch[side]) if isinstance(arch, dict) else list(arch or [])

    def _build_mlp_extractor(self) -> None:
        self.mlp_extractor = PointerExtractor(
            self.structure, self.row_layers, self.shared_layers, self._layer_sizes("vf"),
            self.activation_fn,
        )  # fmt: skip

    def _build(self, lr_schedule: Any) -> None:
        """sb3's ``_build`` with the scorer as ``action_net`` (sb3's would be a linear layer
        from the whole latent to every action)."""
        self._build_mlp_extractor()
        extractor = self.mlp_extractor
        self.action_net = ActionScorer(
            self.structure, extractor.context_dim, extractor.row_dim, self._layer_sizes("pi"),
            self.activation_fn,
        )  # fmt: skip
        self.value_net = nn.Linear(extractor.latent_dim_vf, 1)
        if self.ortho_init:
            gains = {extractor: np.sqrt(2), self.action_net: np.sqrt(2),
                     self.action_net.out: 0.01, self.value_net: 1.0}  # fmt: skip
            for module, gain in gains.items():
                module.apply(partial(self.init_weights, gain=gain))
        self.optimizer = self.optimizer_class(
            self.parameters(), lr=lr_schedule(1), **self.optimizer_kwargs
        )

    def action_scores(self, latent: torch.Tensor, actions: torch.Tensor | None) -> torch.Tensor:
        return self.action_net(latent, actions)

    def _get_constructor_parameters(self) -> dict[str, Any]:
        return {
            **super()._get_constructor_parameters(),
            "structure": self.structure,
            "row_layers": self.row_layers,
            "shared_layers": self.shared_layers,
        }
