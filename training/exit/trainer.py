"""The trainer of ``tabletop train GAME --algo exit``: self-play with the learner's search,
then fitting the network to what the search decided, iteration after iteration, in a run
directory like PPO's (``base_trainer.py`` does the run's duties for both)."""

from __future__ import annotations

import math
from dataclasses import asdict
from typing import Any

import numpy as np
import torch
from torch.utils.tensorboard import SummaryWriter

from tabletop import envs
from tabletop.agents.policy import (
    PolicyMismatchError,
    load_agent,
    locate_policy,
    new_policy,
    read_policy_file,
)
from tabletop.training.base_trainer import BaseTrainer, RunProgress, opponent_pool, snapshot_name
from tabletop.training.config import NetworkSettings
from tabletop.training.exit.buffer import FitResult, ReplayBuffer, fit
from tabletop.training.exit.selfplay import PlayedGame, play_training_game, searching_learner
from tabletop.training.runs import EXIT_CHECKPOINT, TENSORBOARD, CheckpointInfo, TrainSettings

SELF_PLAY = "self-play"
"""The ``opponent`` of a game whose every seat the learner's search played."""


class ExItTrainer(BaseTrainer):
    """One expert-iteration run: the network, its optimiser, the replay buffer and the
    opponent pool, in a run directory."""

    def __init__(
        self,
        settings: TrainSettings,
        *,
        resume: bool,
        progress: bool = True,
        overwrite: bool = False,
    ) -> None:
        super().__init__(settings, resume=resume, progress=progress, overwrite=overwrite)
        options = settings.exit
        if options.depth and envs.spec(settings.game).evaluate is None:
            raise ValueError(
                f"exit.depth: {settings.game} has no evaluation of a position "
                "(GameSpec.evaluate) to end a rollout with; leave depth at 0"
            )
        initial = None if resume or not options.init else self._initial_weights(options.init)
        self.policy = new_policy(self.metadata, self.network)
        self.optimizer = torch.optim.Adam(self.policy.parameters(), lr=options.learning_rate)
        self.buffer = ReplayBuffer(options.buffer_size)
        self._steps = self.info.steps
        self.games = 0
        """Training games played: game ``k`` is deal ``seed + k``."""
        if resume:
            self._load_checkpoint()
        elif initial is not None:
            self.policy.load_state_dict(initial)
        self.policy.set_training_mode(False)
        self.rng = np.random.default_rng(settings.seed + self._steps)
        self.pool = opponent_pool(settings, settings.seed + self._steps)
        self.open_run()
        self.tensorboard = SummaryWriter(str(self.out / TENSORBOARD / "exit"))
        if resume:
            self._restore_snapshots()

    def _initial_weights(self, path: str) -> dict[str, torch.Tensor]:
        """The weights of the policy at ``path`` (a file or run directory), which must
        play this run's game and observations; the run takes its network's shape."""
        metadata, network, weights = read_policy_file(locate_policy(path, self.settings.game))
        differences = metadata.differences(self.metadata)
        if metadata.game != self.metadata.game:
            differences.insert(0, f"game: policy {metadata.game!r}, run {self.metadata.game!r}")
        if differences:
            raise PolicyMismatchError(
                f"exit.init {path} cannot start this run: " + "; ".join(differences)
            )
        self.network = network
        self.settings.network = NetworkSettings(**asdict(network))
        return weights

    # ----- what BaseTrainer asks of a backend -----------------------------------------------

    @property
    def steps(self) -> int:
        return self._steps

    def current_policy(self) -> torch.nn.Module:
        return self.policy

    def has_checkpoint(self, steps: int) -> bool:
        return (self.out / EXIT_CHECKPOINT).exists()

    def record_scalar(self, tag: str, value: float) -> None:
        self.tensorboard.add_scalar(tag, value, self.steps)

    def add_snapshot(self) -> None:
        self.save_snapshot()
        self.pool.add_snapshot(snapshot_name(self.steps), self.learner_agent(False))

    def _restore_snapshots(self) -> None:
        if self.pool is None:
            return
        for path in self.saved_snapshots():
            agent = load_agent(path, game=self.settings.game, deterministic=False)
            self.pool.add_snapshot(snapshot_name(int(path.stem.removeprefix("step_"))), agent)

    def checkpoint(self) -> None:
        """Network, optimiser, replay buffer and games played, written whole, then their
        step (``checkpoint.json``): a kill at any moment leaves a consistent checkpoint."""
        document = {
            "policy": self.policy.state_dict(),
            "optimizer": self.optimizer.state_dict(),
            "buffer": self.buffer.to_tensors(),
            "games": self.games,
        }
        partial_path = self.out / (EXIT_CHECKPOINT + ".partial")
        torch.save(document, partial_path)
        partial_path.replace(self.out / EXIT_CHECKPOINT)
        self.write_checkpoint_info()
        self.save_last_policy()

    def _load_checkpoint(self) -> None:
        document = torch.load(self.out / EXIT_CHECKPOINT, map_location="cpu", weights_only=True)
        self.policy.load_state_dict(document["policy"])
        self.optimizer.load_state_dict(document["optimizer"])
        width = int(np.prod(self.metadata.observation_shape))
        self.buffer.load_tensors(document["buffer"], width)
        self.games = int(document["games"])

    # ----- the run --------------------------------------------------------------------------

    def run(self) -> CheckpointInfo:
        """Iterate up to ``settings.steps`` learner decisions (after the warm start, if
        any, in a new run), then evaluate and checkpoint a last time."""
        try:
            self.check_steps_left()
            if self.wants_warm_start() and not self.settings.exit.init:
                self.report_warm_start(self.imitate(self.policy))
                self.policy.set_training_mode(False)
                self.checkpoint()
            self._train()
            self.evaluate()
            self.checkpoint()
        finally:
            self.close()
        return self.info

    def _train(self) -> None:
        progress = RunProgress(self)
        progress.start(self.settings.steps)
        while self.steps < self.settings.steps:
            new_steps = 0
            for game in self._play_iteration():
                progress.count_game(game.info)
                if game.rows is not None:
                    self.buffer.add(game.rows)
                    new_steps += len(game.rows)
            self._steps += new_steps
            progress.advance(new_steps)
            self._record_fit(self._fit(new_steps))
            progress.end_of_rollout()
        progress.close()

    def _play_iteration(self) -> list[PlayedGame]:
        """``games_per_iteration`` games with the network as it stands."""
        options, settings = self.settings.exit, self.settings
        learner = searching_learner(
            self.policy, self.encoder, self.game, options, settings.seed + self.games
        )
        played = []
        for _ in range(options.games_per_iteration):
            state = self.game.new_state(settings.seed + self.games)
            seat = self._learner_seat()
            seat_agents, opponent = self._opponents(seat)
            played.append(
                play_training_game(
                    state, learner, seat_agents, opponent, seat, settings.cooperative
                )
            )
            self.games += 1
        return played

    def _learner_seat(self) -> int:
        """The seat the game counts for: the learner's in a game against the pool."""
        seat, players = self.settings.seat, self.game.num_players
        if isinstance(seat, int):
            return seat
        if seat == "random":
            return int(self.rng.integers(players))
        return self.games % players

    def _opponents(self, seat: int) -> tuple[list[Any], str]:
        """Who plays each seat (None: the learner's search) and the opponents' name."""
        players = self.game.num_players
        if self.settings.cooperative:
            return [None] * players, "team"
        if self.settings.exit.opponents == "self":
            return [None] * players, SELF_PLAY
        agents: list[Any] = [None] * players
        names = []
        for other in range(players):
            if other != seat:
                name, agents[other] = self.pool.sample(self.rng)
                names.append(name)
        return agents, ",".join(names)

    def _fit(self, new_steps: int) -> FitResult:
        """Batches enough that the iteration's ``new_steps`` rows' worth is drawn
        ``replay_ratio`` times over (at least one batch)."""
        options = self.settings.exit
        batches = max(1, math.ceil(options.replay_ratio * new_steps / options.batch_size))
        return fit(
            self.policy, self.optimizer, self.buffer.rows(), self.metadata.observation_shape,
            batches=batches, batch_size=options.batch_size,
            value_weight=options.value_weight, generator=self.rng,
        )  # fmt: skip

    def _record_fit(self, result: FitResult) -> None:
        self.record_scalar("exit/policy_loss", result.policy_loss)
        self.record_scalar("exit/value_loss", result.value_loss)
        self.record_scalar("exit/buffer_rows", self.buffer.size)

    def close(self) -> None:
        self.log.close()
        self.tensorboard.close()
