"""Every game through RLlib's own PettingZoo glue: the env pre-check on ``PettingZooEnv``, and
``tabletop.wrappers.RLlibActionMasking`` feeding RLlib's example action-masking module.

Without Ray installed the module skips, unless ``TABLETOP_REQUIRE_RAY=1`` (set by
``.ci/run``) makes that a failure.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import numpy as np
import pytest

pytest.importorskip("torch", reason="needs the [train] extra")
import torch

if os.environ.get("TABLETOP_REQUIRE_RAY") == "1":
    import ray  # noqa: F401  (a missing Ray fails here)
else:
    pytest.importorskip("ray.rllib", reason="Ray RLlib is not installed ([distributed] extra)")

from pettingzoo.utils.env_logger import EnvLogger
from ray.rllib.core.columns import Columns
from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv
from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule
from ray.rllib.utils.pre_checks.env import check_multiagent_environments

from tabletop import envs
from tabletop.wrappers import RLlibActionMasking

GAMES = envs.names()
MASKED_STEPS = 30


@pytest.fixture(autouse=True)
def _quiet_illegal_move_warnings() -> Iterator[None]:
    EnvLogger.suppress_output()
    yield
    EnvLogger.unsuppress_output()


@pytest.mark.parametrize("name", GAMES)
def test_rllib_pre_check_passes_on_the_plain_env(name: str) -> None:
    """The pre-check steps an action sampled without the mask: by default the game ends
    with the offender losing, as in PettingZoo classic, instead of raising."""
    check_multiagent_environments(PettingZooEnv(envs.make(name)))


@pytest.mark.parametrize("name", GAMES)
def test_the_wrapper_feeds_rllibs_example_masking_module(name: str) -> None:
    spec = envs.spec(name)
    encoder = "entity" if "entity" in spec.encoders else "flat"  # a table, flattened
    env = PettingZooEnv(RLlibActionMasking(envs.make(name, encoder=encoder)))
    check_multiagent_environments(env)
    observations, _ = env.reset(seed=2)
    (agent,) = observations
    space = env.observation_space[agent]
    assert space["observations"].dtype == space["action_mask"].dtype == np.float32
    assert len(space["observations"].shape) == 1
    module = ActionMaskingTorchRLModule(
        observation_space=space,
        action_space=env.action_space[agent],
        model_config={"head_fcnet_hiddens": [8]},
    )
    rng = np.random.default_rng(0)
    for _ in range(MASKED_STEPS):
        observation = observations[agent]
        assert space.contains(observation)
        legal = np.flatnonzero(observation["action_mask"])
        batch = {Columns.OBS: {k: torch.as_tensor(v)[None] for k, v in observation.items()}}
        with torch.no_grad():
            logits = module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS][0]
        assert int(torch.argmax(logits)) in legal  # the module masks what the env marks
        observations, _, terminateds, truncateds, _ = env.step({agent: int(rng.choice(legal))})
        if terminateds["__all__"] or truncateds["__all__"]:
            break
        (agent,) = observations
        assert not terminateds[agent]  # a masked action is never a forfeit
