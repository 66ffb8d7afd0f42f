"""``tabletop train GAME --fps-benchmark``: is the env the bottleneck of training?

The same MaskablePPO run (same settings, envs and steps) is timed on the game's learner env
and on a zero-cost env with the same spaces, whose steps only hand back a stored observation
and mask, in interleaved rounds. If the game's figure is close to the zero-cost one, the
time goes into PPO itself and a faster engine would not speed training up.

Training speed, beside the trainer it times (``tabletop bench``, in ``cli/bench.py``, times
the engines and envs instead); ``rllib/speed.py`` is the same measure for the RLlib backend.
"""

from __future__ import annotations

import time
from typing import Any

import gymnasium
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.vec_env import VecEnv

from tabletop import envs
from tabletop.agents.policy import NetworkSpec, training_policy
from tabletop.matches.results import Spread, interleaved_rounds, ratio_spread
from tabletop.training.base_trainer import TORCH_THREADS
from tabletop.training.runs import TrainSettings
from tabletop.training.trainer import (
    make_training_env,
    make_vec_env,
    vectorized,
)

ROUNDS = 3
"""Interleaved rounds of one run each of the game and the zero-cost env. Other jobs on the
machine slow whatever runs at the same time, so the ratio is taken within each round, where
both runs shared the same minutes, and the median of those ratios is reported."""
ZERO_COST_EPISODE = 40
"""Steps per episode of the zero-cost env, so that resets and episode ends happen too."""


class ZeroCostEnv(gymnasium.Env):
    """The spaces of a learner env, a real observation and mask, and no work at all."""

    metadata = {"render_modes": []}  # noqa: RUF012  (gymnasium's convention)

    def __init__(self, like: gymnasium.Env) -> None:
        self.observation_space = like.observation_space
        self.action_space = like.action_space
        self._observation, _ = like.reset(seed=0)
        self._mask = like.action_masks()
        self._steps = 0

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        self._steps = 0
        return self._observation, {}

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        self._steps += 1
        return self._observation, 0.0, self._steps >= ZERO_COST_EPISODE, False, {}

    def action_masks(self) -> np.ndarray:
        return self._mask


def make_zero_cost_env(settings: TrainSettings, seed: int, single_thread: bool) -> ZeroCostEnv:
    return ZeroCostEnv(make_training_env(settings, seed, single_thread))


def training_steps_per_second(settings: TrainSettings, vec_env: VecEnv) -> float:
    """Steps/s of ``settings.steps`` steps of MaskablePPO on ``vec_env`` (model built first)."""
    raw = envs.make(settings.game, **settings.env_options).unwrapped
    network = NetworkSpec(**settings.network.model_dump())
    policy_class, policy_kwargs = training_policy(network, raw.game, raw.encoder.name)
    model = MaskablePPO(
        policy_class,
        vec_env,
        seed=settings.seed,
        device="cpu",
        policy_kwargs=policy_kwargs,
        **settings.ppo.model_dump(),
    )
    start = time.perf_counter()
    model.learn(settings.steps)
    elapsed = time.perf_counter() - start
    steps = model.num_timesteps
    vec_env.close()
    return steps / elapsed


def zero_cost_vec_env(settings: TrainSettings) -> VecEnv:
    return vectorized(settings, make_zero_cost_env, settings.seed)


def print_fps_benchmark(settings: TrainSettings, rounds: int = ROUNDS) -> None:
    """Both figures in interleaved rounds (game then zero-cost, reversed every other round):
    every round's figures, their medians and the median of the per-round ratios with their
    min-max."""
    torch.set_num_threads(TORCH_THREADS)
    runs = interleaved_rounds(
        {
            "game": lambda: training_steps_per_second(
                settings, make_vec_env(settings, settings.seed)
            ),
            "zero-cost": lambda: training_steps_per_second(settings, zero_cost_vec_env(settings)),
        },
        rounds,
    )
    game, zero_cost = Spread.of(runs["game"]), Spread.of(runs["zero-cost"])
    ratio = ratio_spread(runs["game"], runs["zero-cost"])
    where = "subprocesses" if settings.in_subprocesses else "one process"
    print(
        f"{settings.game}: {settings.steps} MaskablePPO steps, {settings.envs} envs in {where}, "
        f"{rounds} interleaved rounds"
    )
    print("  each round, game env:      " + ", ".join(f"{fps:,.0f}" for fps in runs["game"]))
    print("  each round, zero-cost env: " + ", ".join(f"{fps:,.0f}" for fps in runs["zero-cost"]))
    print(f"  game env:      {game.median:,.0f} steps/s (median)")
    print(f"  zero-cost env: {zero_cost.median:,.0f} steps/s (median)")
    print(
        f"  game / zero-cost: {ratio.median:.3f} (median of the per-round ratios; "
        f"min {ratio.low:.3f}, max {ratio.high:.3f})"
    )
