"""``tabletop train GAME --fps-benchmark``: is the env the bottleneck of training?

The same MaskablePPO run (same settings, envs and steps) is timed twice: on the game's
learner env, and on a zero-cost env with the same spaces, whose steps only hand back a
stored observation and mask. If the game's figure is close to the zero-cost one, the
time goes into PPO itself and a faster engine would not speed training up.
"""

from __future__ import annotations

import time
from typing import Any

import gymnasium
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.vec_env import VecEnv

from tabletop.training.policy import NetworkSpec
from tabletop.training.train import TrainSettings
from tabletop.training.trainer import (
    TORCH_THREADS,
    make_training_env,
    make_vec_env,
    vectorized,
)

ROUNDS = 3
"""Each figure is the best of this many runs, alternating game and zero-cost: other load on
the machine only ever slows a run down, so the fastest run is the least disturbed."""
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
    model = MaskablePPO(
        "MlpPolicy",
        vec_env,
        seed=settings.seed,
        device="cpu",
        policy_kwargs=NetworkSpec(**settings.network).policy_kwargs(),
        **settings.ppo,
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
    """Both figures (each the best of ``rounds`` runs, alternating) and their ratio."""
    torch.set_num_threads(TORCH_THREADS)
    game_runs, zero_runs = [], []
    for _ in range(rounds):
        game_runs.append(training_steps_per_second(settings, make_vec_env(settings, settings.seed)))
        zero_runs.append(training_steps_per_second(settings, zero_cost_vec_env(settings)))
    game_fps, zero_fps = max(game_runs), max(zero_runs)
    where = "subprocesses" if settings.in_subprocesses else "one process"
    print(
        f"{settings.game}: {settings.steps} MaskablePPO steps, {settings.envs} envs in {where}, "
        f"best of {rounds} runs each"
    )
    print("  all runs, game env:      " + ", ".join(f"{fps:,.0f}" for fps in game_runs))
    print("  all runs, zero-cost env: " + ", ".join(f"{fps:,.0f}" for fps in zero_runs))
    print(f"  game env:      {game_fps:,.0f} steps/s")
    print(f"  zero-cost env: {zero_fps:,.0f} steps/s")
    print(f"  game / zero-cost: {game_fps / zero_fps:.3f}")
