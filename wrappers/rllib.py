"""A tabletop AEC env as RLlib's own ``PettingZooEnv`` and its example action masking read it.

RLlib's example ``ActionMaskingTorchRLModule`` (``ray.rllib.examples.rl_modules.classes.
action_masking_rlm``) reads observations ``{"observations": ..., "action_mask": ...}`` and
takes the log of the mask, so the mask must be floats; a tabletop env observes
``{"observation": ..., "action_mask": int8}``. This wrapper renames the key, makes the mask
float32 and flattens the observation (RLlib's default encoders take a vector, and the
entity encoders' observations are tables), so that::

    PettingZooEnv(RLlibActionMasking(tabletop.envs.make("kaleva")))

is an RLlib ``MultiAgentEnv`` that the example module trains on. Nothing here imports Ray.
The project's own RLlib backend (``tabletop train --backend rllib``) does not need it: its
env (``training/rllib/env.py``) writes these keys itself.
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils.wrappers import BaseWrapper

OBSERVATIONS = "observations"
"""The key of the observation vector in RLlib's example action-masking module."""
ACTION_MASK = "action_mask"
"""The key of the mask (1.0 legal, 0.0 illegal) in RLlib's example action-masking module."""


class RLlibActionMasking(BaseWrapper):
    """``env``'s observations as ``{"observations": float32 vector, "action_mask": float32}``.

    ``env`` is any AEC env that observes ``{"observation": Box, "action_mask": Box}`` (every
    tabletop env, wrapped or raw). Everything else (steps, rewards, ``unwrapped``) is
    ``env``'s; wrap with ``ray.rllib.env.wrappers.pettingzoo_env.PettingZooEnv`` next.
    """

    def __init__(self, env: AECEnv) -> None:
        super().__init__(env)
        self._observation_spaces = {
            agent: _masked_space(agent, env.observation_space(agent))
            for agent in env.possible_agents
        }

    def observation_space(self, agent: str) -> spaces.Dict:
        return self._observation_spaces[agent]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        observed = self.env.observe(agent)
        return {
            OBSERVATIONS: np.asarray(observed["observation"], np.float32).reshape(-1),
            ACTION_MASK: np.asarray(observed["action_mask"], np.float32),
        }


def _masked_space(agent: str, space: spaces.Space) -> spaces.Dict:
    """The wrapped observation space of ``agent``, whose own space is ``space``."""
    if not (isinstance(space, spaces.Dict) and {"observation", "action_mask"} <= set(space)):
        raise TypeError(
            f"RLlibActionMasking needs observations {{'observation', 'action_mask'}}; "
            f"{agent} observes {space}"
        )
    size = int(np.prod(space["observation"].shape))
    mask_size = int(np.prod(space["action_mask"].shape))
    return spaces.Dict(
        {
            OBSERVATIONS: spaces.Box(-np.inf, np.inf, (size,), np.float32),
            ACTION_MASK: spaces.Box(0.0, 1.0, (mask_size,), np.float32),
        }
    )
