"""The policy RLlib trains: the project's own network inside an RLModule that masks.

RLlib's action-masking module is example code, not library API, so this is ours. The
module's network *is* ``new_policy(metadata, network)``, the class the SB3 backend trains
and ``load_agent`` loads, so a trained module is exported with ``save_policy`` as it is,
and its logits equal the exported agent's.

Illegal actions get the logit ``MASKED_LOGIT``: their probability is exactly 0 in float32,
and a row with no legal action (a finished game's last observation, never trained on)
stays finite. The critic reads only the observation, never the mask.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

import torch
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.apis.value_function_api import ValueFunctionAPI
from ray.rllib.core.rl_module.torch import TorchRLModule

from tabletop.agents.policy import NetworkSpec, PolicyMetadata, new_policy
from tabletop.training.rllib.env import ACTION_MASK, OBSERVATIONS

MASKED_LOGIT = -1e9
POLICY_PREFIX = "policy."
"""The network's parameters in the module's state dict: ``policy.<its own name>``."""
NOT_A_SNAPSHOT = -1


def model_config(metadata: PolicyMetadata, network: NetworkSpec) -> dict[str, Any]:
    """What ``MaskedPolicyModule`` is built from, as plain data (it travels to runners)."""
    fields = {**asdict(metadata), "observation_shape": list(metadata.observation_shape)}
    return {"metadata": fields, "network": asdict(network)}


class MaskedPolicyModule(TorchRLModule, ValueFunctionAPI):
    """``model_config`` is ``model_config(metadata, network)``."""

    def setup(self) -> None:
        torch.set_num_threads(1)
        fields = dict(self.model_config["metadata"])
        fields["observation_shape"] = tuple(fields["observation_shape"])
        self.policy = new_policy(
            PolicyMetadata(**fields), NetworkSpec(**self.model_config["network"])
        )
        self.policy.optimizer = None  # RLlib's learner owns the optimiser
        # The learner step this module's weights were frozen at (a league slot), or
        # NOT_A_SNAPSHOT: a buffer, so it travels with the weights to every env runner and
        # into checkpoints, and a restarted runner knows the league at once.
        self.register_buffer("snapshot_step", torch.tensor(NOT_A_SNAPSHOT, dtype=torch.long))

    def _logits(self, batch: dict[str, Any]) -> torch.Tensor:
        observation = batch[Columns.OBS]
        policy = self.policy
        features = policy.extract_features(observation[OBSERVATIONS], policy.pi_features_extractor)
        logits = policy.action_scores(policy.mlp_extractor.forward_actor(features), None)
        return logits.masked_fill(observation[ACTION_MASK] < 0.5, MASKED_LOGIT)

    def _forward(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        return {Columns.ACTION_DIST_INPUTS: self._logits(batch)}

    def _forward_train(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        return {Columns.ACTION_DIST_INPUTS: self._logits(batch)}

    def compute_values(self, batch: dict[str, Any], embeddings: Any = None) -> torch.Tensor:
        return self.policy.predict_values(batch[Columns.OBS][OBSERVATIONS]).squeeze(-1)


def policy_weights(module_state: dict[str, Any]) -> dict[str, torch.Tensor]:
    """The network's own state dict out of a module's (as ``get_weights`` returns it)."""
    return {
        key.removeprefix(POLICY_PREFIX): torch.as_tensor(value)
        for key, value in module_state.items()
        if key.startswith(POLICY_PREFIX)
    }


def module_weights(policy_state: dict[str, torch.Tensor], snapshot_step: int) -> dict[str, Any]:
    """A module's state from a network's state dict and its league step."""
    state: dict[str, Any] = {POLICY_PREFIX + key: value for key, value in policy_state.items()}
    state["snapshot_step"] = torch.tensor(snapshot_step, dtype=torch.long)
    return state
