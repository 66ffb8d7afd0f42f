"""``RLlibTrainer``: a run of RLlib's PPO in the same run directory as the SB3 trainer's.

It shares ``BaseTrainer``: the same ``settings.json``, ``log.csv`` columns, evaluation
deals, ``best_policy.pt`` / ``last_policy.pt`` / ``snapshots/`` in the project's policy
format, and ``checkpoint.json``. Its checkpoint is RLlib's (``checkpoints/step_N/``: the
modules, the optimiser, the league's slots). Steps count the learner's decisions (the
``main`` module's), as in the SB3 trainer, not the env steps of the snapshot modules.

An iteration in which no env runner sampled (one was lost and is being restarted) counts
no steps and does no duties; ``STALL_LIMIT_S`` of such iterations in a row end the run
with an error.
"""

from __future__ import annotations

import math
import shutil
import time
from pathlib import Path
from typing import Any

import ray
import torch
from ray.rllib.algorithms import Algorithm
from torch.utils.tensorboard import SummaryWriter

from tabletop.agents.policy import NetworkSpec, new_policy
from tabletop.training.base_trainer import BaseTrainer, RunProgress
from tabletop.training.rllib.cluster import check_cpus, connect
from tabletop.training.rllib.config import check_network, ppo_config, ppo_training
from tabletop.training.rllib.env import MAIN, snapshot_slots
from tabletop.training.rllib.league import finished_games
from tabletop.training.rllib.module import (
    NOT_A_SNAPSHOT,
    module_weights,
    policy_weights,
)
from tabletop.training.runs import (
    RLLIB_CHECKPOINTS,
    TENSORBOARD,
    CheckpointInfo,
    TrainSettings,
)

STALL_LIMIT_S = 600.0
"""How long iterations may sample nothing (every env runner lost) before the run fails."""


class RLlibTrainer(BaseTrainer):
    """One RLlib run; ``address`` joins a Ray cluster, None starts a local Ray."""

    def __init__(
        self,
        settings: TrainSettings,
        *,
        resume: bool,
        progress: bool = True,
        address: str | None = None,
        overwrite: bool = False,
    ) -> None:
        # What RLlib cannot train, and a Ray that cannot be joined or lacks the CPUs, are
        # refused before the run directory is touched: a retry then starts the run afresh.
        check_network(NetworkSpec(**settings.network.model_dump()))
        ppo_training(
            settings.ppo.model_dump(), settings.rllib.train_batch
        )  # a [ppo] key RLlib lacks
        connect(address)
        try:
            check_cpus(settings.rllib.env_runners)
            super().__init__(settings, resume=resume, progress=progress, overwrite=overwrite)
            self._steps = self.info.steps
            self.algo = self._built_algorithm()
        except BaseException:
            ray.shutdown()
            raise
        self.open_run()
        self.tensorboard = SummaryWriter(str(self.out / TENSORBOARD / "rllib"))

    def _built_algorithm(self) -> Algorithm:
        """PPO on this run's settings; a resumed run's state from its checkpoint (the
        settings of this invocation, e.g. ``--env-runners``, apply)."""
        seed = self.settings.seed + self.info.steps
        algo = ppo_config(self.settings, self.metadata, self.network, seed).build_algo()
        if self.resumed:
            algo.restore_from_path(str(self._checkpoint_path(self.info.steps).resolve()))
            self._send_modules_to_runners(algo)
        return algo

    def _send_modules_to_runners(self, algo: Algorithm) -> None:
        """Every module's weights from the learner onto every env runner, waiting until
        they are set. RLlib's own sync after a restore is fire-and-forget and is dropped
        while the runner still works on the sync of the build (on a loaded machine), which
        would leave the resumed run's first games to untrained modules and an empty
        league."""
        modules = [MAIN, *snapshot_slots(self.settings)]
        states = algo.learner_group.get_weights(module_ids=modules)

        def set_modules(runner: Any) -> None:
            for module_id in modules:
                runner.module[module_id].set_state(states[module_id])

        algo.env_runner_group.foreach_env_runner(set_modules, local_env_runner=True)

    def _checkpoint_path(self, steps: int) -> Path:
        return self.out / RLLIB_CHECKPOINTS / f"step_{steps:010d}"

    def has_checkpoint(self, steps: int) -> bool:
        return self._checkpoint_path(steps).is_dir()

    @property
    def steps(self) -> int:
        return self._steps

    def current_policy(self) -> torch.nn.Module:
        weights = self.algo.learner_group.get_weights(module_ids=[MAIN])[MAIN]
        policy = new_policy(self.current_metadata(), self.network)
        policy.load_state_dict(policy_weights(weights))
        return policy

    def record_scalar(self, tag: str, value: float) -> None:
        self.tensorboard.add_scalar(tag, value, self.steps)

    def set_module(self, module_id: str, state: dict[str, Any]) -> None:
        """Weights into the learner's module and every env runner's copy. Not through
        ``sync_weights``: a runner ignores a state whose sequence number it has seen, and
        the learner's last update already sent this one."""
        self.algo.learner_group.set_weights({module_id: state})
        self.algo.env_runner_group.foreach_env_runner(
            lambda runner: runner.module[module_id].set_state(state), local_env_runner=True
        )

    # ----- periodic duties ------------------------------------------------------------------

    def add_snapshot(self) -> None:
        """The learner into the league's oldest slot (an empty one first), and its file."""
        self.save_snapshot()
        slots = snapshot_slots(self.settings)
        states = self.algo.learner_group.get_weights(module_ids=slots)
        oldest = min(slots, key=lambda slot: int(states[slot]["snapshot_step"]))
        main = self.algo.learner_group.get_weights(module_ids=[MAIN])[MAIN]
        self.set_module(oldest, module_weights(policy_weights(main), self.steps))

    def checkpoint(self) -> None:
        """RLlib's checkpoint in a new directory, then ``checkpoint.json`` naming its step
        (the switch-over), then the older directories go: a kill at any moment leaves
        one whole checkpoint that ``checkpoint.json`` names."""
        path = self._checkpoint_path(self.steps)
        if path.exists():
            shutil.rmtree(path)
        self.algo.save_to_path(str(path.resolve()))
        self.write_checkpoint_info()
        for old in (self.out / RLLIB_CHECKPOINTS).iterdir():
            if old != path:
                shutil.rmtree(old)
        self.save_last_policy()

    def warm_start(self) -> None:
        policy = new_policy(self.current_metadata(), self.network)
        self.report_warm_start(self.imitate(policy))
        self.set_module(MAIN, module_weights(policy.state_dict(), NOT_A_SNAPSHOT))
        self.checkpoint()

    # ----- the run --------------------------------------------------------------------------

    def train_iteration(self) -> tuple[int, dict[str, Any]]:
        """One PPO iteration: the learner's new steps and RLlib's result."""
        result = self.algo.train()
        sampled = result.get("env_runners", {}).get("num_module_steps_sampled", {})
        figure = sampled.get(MAIN, 0) if isinstance(sampled, dict) else 0
        new_steps = 0 if math.isnan(figure) else int(figure)  # NaN: no runner sampled
        self._steps += new_steps
        return new_steps, result

    def run(self) -> CheckpointInfo:
        """Train up to ``settings.steps`` (after the warm start, if any, in a new run), then
        evaluate and checkpoint a last time."""
        try:
            self.check_steps_left()
            if self.wants_warm_start():
                self.warm_start()
            self._train()
            self.evaluate()
            self.checkpoint()
        finally:
            self.close()
        return self.info

    def _train(self) -> None:
        progress = RunProgress(self)
        progress.start(self.settings.steps)
        last_sample = time.monotonic()
        while self.steps < self.settings.steps:
            new_steps, _ = self.train_iteration()
            for info in finished_games(self.algo.env_runner_group):
                progress.count_game(info)
            if new_steps == 0:
                if time.monotonic() - last_sample > STALL_LIMIT_S:
                    raise RuntimeError(f"no env runner sampled for {STALL_LIMIT_S:.0f} s")
                continue
            last_sample = time.monotonic()
            progress.advance(new_steps)
            progress.end_of_rollout()
        progress.close()

    def close(self) -> None:
        """Stop the algorithm and the Ray this process joined or started."""
        self.log.close()
        self.tensorboard.close()
        self.algo.stop()
        ray.shutdown()
