"""The SB3 backend of ``tabletop train`` (imported only when training, as it loads torch):
the learner envs, the ``Trainer`` that fits MaskablePPO in a run directory, and the callback
that drives the progress bar and the periodic duties (``base_trainer.py``)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import gymnasium
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecEnv

from tabletop import envs
from tabletop.agents.policy import load_agent, training_policy
from tabletop.training.base_trainer import (
    BaseTrainer,
    RunProgress,
    opponent_pool,
    snapshot_name,
)
from tabletop.training.runs import CHECKPOINT, TENSORBOARD, CheckpointInfo, TrainSettings
from tabletop.wrappers import SingleAgentEnv

# ----- environments -------------------------------------------------------------------------


def make_training_env(settings: TrainSettings, seed: int, single_thread: bool) -> SingleAgentEnv:
    """One learner env; ``partial(make_training_env, ...)`` pickles into subprocesses."""
    if single_thread:
        torch.set_num_threads(1)
    pool = opponent_pool(settings, seed)
    # A masked learner never plays an illegal move: if one comes, it is a bug to raise, not a
    # move to forfeit (the env's default).
    env = envs.make(settings.game, **{"illegal_action": "raise", **settings.env_options})
    return SingleAgentEnv(env, pool, cooperative=settings.cooperative, seat=settings.seat)


def make_vec_env(settings: TrainSettings, seed: int) -> VecEnv:
    """``settings.envs`` learner envs (see ``vectorized``), seeded."""
    vec_env = vectorized(settings, make_training_env, seed)
    vec_env.seed(seed)
    return vec_env


def vectorized(
    settings: TrainSettings, factory: Callable[[TrainSettings, int, bool], gymnasium.Env], seed: int
) -> VecEnv:
    """``settings.envs`` envs ``factory(settings, env_seed, in_subprocess)``: in SubprocVecEnv
    workers when ``settings.in_subprocesses``, otherwise in this process. The games are the
    same either way; only the speed differs."""
    in_subprocess = settings.in_subprocesses
    factories = [
        partial(factory, settings, seed + 7919 * index, in_subprocess)
        for index in range(settings.envs)
    ]
    return SubprocVecEnv(factories, "forkserver") if in_subprocess else DummyVecEnv(factories)


# ----- the trainer --------------------------------------------------------------------------


class Trainer(BaseTrainer):
    """One SB3 run: the MaskablePPO model, its envs, its directory and duties."""

    def __init__(
        self,
        settings: TrainSettings,
        *,
        resume: bool,
        progress: bool = True,
        overwrite: bool = False,
    ) -> None:
        super().__init__(settings, resume=resume, progress=progress, overwrite=overwrite)
        self.vec_env = make_vec_env(settings, settings.seed + self.info.steps)
        self.model = self._resumed_model() if resume else self._new_model()
        self.open_run()
        if resume:
            self._restore_snapshots()

    def _new_model(self) -> MaskablePPO:
        policy_class, policy_kwargs = training_policy(self.network, self.game, self.encoder.name)
        return MaskablePPO(
            policy_class,
            self.vec_env,
            seed=self.settings.seed,
            device="cpu",
            tensorboard_log=str(self.out / TENSORBOARD),
            policy_kwargs=policy_kwargs,
            **self.settings.ppo.model_dump(),
        )

    def _resumed_model(self) -> MaskablePPO:
        model = MaskablePPO.load(self.out / CHECKPOINT, env=self.vec_env, device="cpu")
        model.tensorboard_log = str(self.out / TENSORBOARD)
        model.set_random_seed(self.settings.seed + self.info.steps)
        return model

    def has_checkpoint(self, steps: int) -> bool:
        return (self.out / CHECKPOINT).exists()

    @property
    def steps(self) -> int:
        return int(self.model.num_timesteps)

    def current_policy(self) -> torch.nn.Module:
        return self.model.policy

    def record_scalar(self, tag: str, value: float) -> None:
        self.model.logger.record(tag, value)

    # ----- periodic duties ------------------------------------------------------------------

    def add_snapshot(self) -> None:
        """Save the learner as a snapshot and add it to every env's opponent pool."""
        self.save_snapshot()
        self.vec_env.env_method(
            "add_opponent", snapshot_name(self.steps), self.learner_agent(False)
        )

    def _restore_snapshots(self) -> None:
        if self.settings.cooperative:
            return
        for path in self.saved_snapshots():
            agent = load_agent(path, game=self.settings.game, deterministic=False)
            name = snapshot_name(int(path.stem.removeprefix("step_")))
            self.vec_env.env_method("add_opponent", name, agent)

    def checkpoint(self) -> None:
        """The whole model (with optimiser) and then its step count, each written
        atomically: a kill at any moment leaves a consistent checkpoint behind."""
        partial_path = self.out / "checkpoint.partial.zip"
        self.model.save(partial_path)
        partial_path.replace(self.out / CHECKPOINT)
        self.write_checkpoint_info()
        self.save_last_policy()

    # ----- the run --------------------------------------------------------------------------

    def run(self) -> CheckpointInfo:
        """Train up to ``settings.steps`` (after the warm start, if any, in a new run), then
        evaluate and checkpoint a last time."""
        fresh = self.info.steps == 0
        try:
            remaining = self.check_steps_left()
        except ValueError:
            self.vec_env.close()
            raise
        if self.wants_warm_start():
            self.report_warm_start(self.imitate(self.model.policy))
            self.checkpoint()
        self.model.learn(
            remaining,
            callback=ProgressCallback(self),
            reset_num_timesteps=fresh,
            tb_log_name="ppo",
        )
        self.evaluate()
        self.model.logger.dump(self.steps)
        self.checkpoint()
        self.log.close()
        self.vec_env.close()
        return self.info


def final_step(start: int, target: int, rollout: int) -> int:
    """The step a run from ``start`` to ``target`` ends at: PPO collects whole rollouts of
    ``rollout`` steps (``n_steps`` per env) until it reaches ``target``, so it may pass it."""
    return start + -(-(target - start) // rollout) * rollout


class ProgressCallback(BaseCallback):
    """Feeds SB3's rollouts to the run's ``RunProgress``: finished games at each step, the
    duties at each rollout's end."""

    def __init__(self, trainer: Trainer) -> None:
        super().__init__()
        self.trainer = trainer
        self.progress: RunProgress | None = None

    def _on_training_start(self) -> None:
        self.progress = RunProgress(self.trainer)
        rollout = self.model.n_steps * self.training_env.num_envs
        self.progress.start(final_step(self.trainer.steps, self.trainer.settings.steps, rollout))

    def _on_step(self) -> bool:
        for done, info in zip(self.locals["dones"], self.locals["infos"], strict=True):
            if done and "outcome" in info:
                self.progress.count_game(info)
        self.progress.advance(self.training_env.num_envs)
        return True

    def _on_rollout_end(self) -> None:
        self.progress.end_of_rollout()

    def _on_training_end(self) -> None:
        self.progress.close()
