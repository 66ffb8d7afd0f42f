"""A run's settings as RLlib's PPO configuration.

Every PPO key of ``configs.toml [ppo]`` is mapped explicitly, because RLlib's defaults
differ from SB3's (learning rate 5e-5, 30 epochs, lambda 1.0, a KL term, a clipped value
loss); with the mapping, both backends optimise the same objective. The ``[rllib]`` table
holds what only RLlib has.
"""

from __future__ import annotations

from typing import Any

from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from ray.rllib.env.env_context import EnvContext
from ray.tune.registry import register_env

from tabletop.agents.policy import NetworkSpec, PolicyMetadata
from tabletop.training.rllib.env import MAIN, TabletopMultiAgentEnv, module_of, snapshot_slots
from tabletop.training.rllib.league import LeagueCallback
from tabletop.training.rllib.module import MaskedPolicyModule, model_config
from tabletop.training.runs import TrainSettings

ENV_NAME = "tabletop_multi_agent"
SB3_MAX_GRAD_NORM = 0.5
"""SB3's default ``max_grad_norm``, which the SB3 trainer keeps."""


def make_env(context: EnvContext) -> TabletopMultiAgentEnv:
    """Every env runner and every env within it deals its own games."""
    seed = context["seed"] + 7919 * context.worker_index + 104729 * context.vector_index
    return TabletopMultiAgentEnv({"settings": context["settings"], "seed": seed})


def ppo_config(
    settings: TrainSettings, metadata: PolicyMetadata, network: NetworkSpec, seed: int
) -> PPOConfig:
    """The run's PPO, league and fault tolerance; registers the env in this process."""
    check_network(network)
    register_env(ENV_NAME, make_env)
    rllib, ppo = settings.rllib, settings.ppo
    modules = [MAIN, *snapshot_slots(settings)]
    spec = RLModuleSpec(
        module_class=MaskedPolicyModule, model_config=model_config(metadata, network)
    )
    env_config = {"settings": settings.to_json(), "seed": seed}
    return (
        PPOConfig()
        .environment(ENV_NAME, env_config=env_config, disable_env_checking=True)
        .env_runners(
            num_env_runners=rllib.env_runners,
            num_envs_per_env_runner=settings.envs,
            num_cpus_per_env_runner=1,
            rollout_fragment_length="auto",
            episodes_to_numpy=rllib.episodes_to_numpy,
        )
        .learners(num_learners=0)
        .multi_agent(policies=set(modules), policy_mapping_fn=module_of, policies_to_train=[MAIN])
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs=dict.fromkeys(modules, spec)))
        .training(**ppo_training(ppo.model_dump(), rllib.train_batch))
        .callbacks(LeagueCallback)
        .fault_tolerance(
            restart_failed_env_runners=True,
            delay_between_env_runner_restarts_s=rllib.restart_delay_s,
            env_runner_health_probe_timeout_s=rllib.health_probe_timeout_s,
        )
        .debugging(seed=seed)
    )


def check_network(network: NetworkSpec) -> None:
    """Refuse a network RLlib cannot train: a pointer network scores only the legal
    actions, and RLlib's categorical distribution needs a logit for every action id."""
    if network.rows:
        raise ValueError(
            "--backend rllib cannot train a pointer network (network.rows): RLlib's action "
            "distribution needs a logit for every action id; use --backend sb3 or "
            "--set network.rows=[]"
        )


def ppo_training(ppo: dict[str, Any], train_batch: int) -> dict[str, Any]:
    """``configs.toml [ppo]`` (MaskablePPO's keywords) as ``PPOConfig.training`` keywords."""
    known = {
        "learning_rate", "n_steps", "batch_size", "n_epochs", "gamma", "gae_lambda",
        "clip_range", "ent_coef", "vf_coef",
    }  # fmt: skip
    unknown = set(ppo) - known
    if unknown:
        raise ValueError(f"ppo settings with no RLlib equivalent: {', '.join(sorted(unknown))}")
    return {
        "lr": ppo["learning_rate"],
        "train_batch_size_per_learner": train_batch,
        "minibatch_size": ppo["batch_size"],
        "num_epochs": ppo["n_epochs"],
        "gamma": ppo["gamma"],
        "lambda_": ppo["gae_lambda"],
        "clip_param": ppo["clip_range"],
        "entropy_coeff": ppo["ent_coef"],
        "vf_loss_coeff": ppo["vf_coef"],
        "use_kl_loss": False,
        "vf_clip_param": float("inf"),
        "grad_clip": SB3_MAX_GRAD_NORM,
        "grad_clip_by": "global_norm",
    }
