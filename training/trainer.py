"""The machinery of ``tabletop train`` (imported only when training, as it loads torch):
the learner envs, the ``Trainer`` that owns a run directory, and the callback that drives
the progress bar and the periodic duties."""

from __future__ import annotations

import csv
import json
import sys
import time
from collections import defaultdict, deque
from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from functools import partial
from pathlib import Path
from typing import Any

import gymnasium
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecEnv
from tqdm import tqdm

from tabletop import envs
from tabletop.agents import make_agent
from tabletop.agents.outcome import DRAW, WIN
from tabletop.agents.policy import (
    NetworkSpec,
    PolicyAgent,
    PolicyMetadata,
    env_metadata,
    load_agent,
    new_policy,
    save_policy,
    training_policy,
)
from tabletop.training.evaluate import (
    TeamResult,
    pair_result,
    pair_schedule,
    play_games,
    team_result,
)
from tabletop.training.imitation import (
    Demonstrations,
    ImitationResult,
    collect,
    imitate,
    sampling_actor,
)
from tabletop.training.records import GameRecord
from tabletop.training.results import wilson_interval
from tabletop.training.runs import (
    BEST_POLICY,
    CHECKPOINT,
    CHECKPOINT_INFO,
    EVAL_SEED_OFFSET,
    IMITATION,
    LAST_POLICY,
    LOG,
    LOG_FIELDS,
    SETTINGS,
    SNAPSHOTS,
    TENSORBOARD,
    CheckpointInfo,
    TrainSettings,
    write_json,
)
from tabletop.wrappers import OpponentPool, SingleAgentEnv

IMITATION_SEED_OFFSET = 2_000_000
"""The warm start's deals are seeds ``seed + IMITATION_SEED_OFFSET + k``, apart from the
training deals and from the evaluation deals (``EVAL_SEED_OFFSET``)."""

TORCH_THREADS = 1
"""Torch threads of the learner process. PPO's small matrices gain nothing from a second
thread, and on a busy machine idle OpenMP threads spin: measured on 2 shared cores, one
thread trained 17-30x faster than two (0.5-0.8 vs 14-38 ms of CPU per step)."""


# ----- environments -------------------------------------------------------------------------


def make_training_env(settings: TrainSettings, seed: int, single_thread: bool) -> SingleAgentEnv:
    """One learner env; ``partial(make_training_env, ...)`` pickles into subprocesses."""
    if single_thread:
        torch.set_num_threads(1)
    pool = None
    if not settings.cooperative:
        baselines = {
            spec: make_agent(spec, settings.game, seed + index)
            for index, spec in enumerate(settings.selfplay["baselines"])
        }
        pool = OpponentPool(
            baselines,
            baseline_share=settings.selfplay["baseline_share"],
            max_snapshots=settings.selfplay["max_snapshots"],
        )
    env = envs.make(settings.game, **settings.env_options)
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


# ----- the run's log ------------------------------------------------------------------------


class RunLog:
    """``log.csv``, appended row by row and flushed, so a killed run keeps its log."""

    def __init__(self, path: Path, keep_up_to_step: int | None) -> None:
        self.path = path
        if keep_up_to_step is not None and path.exists():
            self._truncate_after(keep_up_to_step)
        is_new = not path.exists()
        self._file = path.open("a", newline="", encoding="utf-8")
        self._writer = csv.DictWriter(self._file, LOG_FIELDS)
        if is_new:
            self._writer.writeheader()

    def _truncate_after(self, step: int) -> None:
        """Drop the rows a killed run logged after the checkpoint it resumes from."""
        with self.path.open(newline="", encoding="utf-8") as file:
            rows = [row for row in csv.DictReader(file) if int(row["step"]) <= step]
        with self.path.open("w", newline="", encoding="utf-8") as file:
            writer = csv.DictWriter(file, LOG_FIELDS)
            writer.writeheader()
            writer.writerows(rows)

    def write(self, row: dict[str, Any]) -> None:
        self._writer.writerow(row)
        self._file.flush()

    def close(self) -> None:
        self._file.close()


@dataclass(frozen=True)
class Tally:
    """The figures of one ``log.csv`` row: some games seen from one side."""

    games: int
    wins: int
    draws: int
    mean_return: float
    metric_value: float

    @classmethod
    def of_records(
        cls, records: list[GameRecord], label: str, wins: int, draws: int, metric_value: float
    ) -> Tally:
        returns = [record.side_return(label) for record in records]
        return cls(len(records), wins, draws, sum(returns) / len(records), metric_value)


@dataclass(frozen=True)
class RecentGame:
    """A finished training game, as the learner's env reported it."""

    outcome: str
    own_return: float
    metric_value: float | None
    """The game's ``best_metric`` figure (None for ``win_rate``, which is not a stats key)."""


# ----- the trainer --------------------------------------------------------------------------


class Trainer:
    """One run: the model, its envs, its directory and the periodic duties."""

    def __init__(self, settings: TrainSettings, *, resume: bool, progress: bool = True) -> None:
        torch.set_num_threads(TORCH_THREADS)
        self.settings = settings
        self.out = Path(settings.out)
        self.out.mkdir(parents=True, exist_ok=True)
        if not resume:
            write_json(self.out / SETTINGS, asdict(settings))
        self.progress = progress
        self.network = NetworkSpec(**settings.network)
        probe = envs.make(settings.game, **settings.env_options)
        self.encoder = probe.unwrapped.encoder
        self.game = probe.unwrapped.game
        self.metadata = env_metadata(probe, seed=settings.seed, game_options=settings.env_options)
        self.info = self._read_checkpoint_info() if resume else CheckpointInfo()
        self.vec_env = make_vec_env(settings, settings.seed + self.info.steps)
        self.model = self._resumed_model() if resume else self._new_model()
        self.log = RunLog(self.out / LOG, self.info.steps if resume else None)
        self.started = time.perf_counter() - self.info.elapsed_s
        self.resumed = resume
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
            **self.settings.ppo,
        )

    def _resumed_model(self) -> MaskablePPO:
        model = MaskablePPO.load(self.out / CHECKPOINT, env=self.vec_env, device="cpu")
        model.tensorboard_log = str(self.out / TENSORBOARD)
        model.set_random_seed(self.settings.seed + self.info.steps)
        return model

    def _read_checkpoint_info(self) -> CheckpointInfo:
        path = self.out / CHECKPOINT_INFO
        if not (self.out / CHECKPOINT).exists() or not path.exists():
            raise FileNotFoundError(
                f"{self.out} holds no checkpoint to resume from; --overwrite starts the run over"
            )
        return CheckpointInfo(**json.loads(path.read_text(encoding="utf-8")))

    @property
    def steps(self) -> int:
        return int(self.model.num_timesteps)

    # ----- the learner as a policy ----------------------------------------------------------

    def _current_metadata(self) -> PolicyMetadata:
        return replace(self.metadata, training_steps=self.steps)

    def learner_agent(self, deterministic: bool) -> PolicyAgent:
        """A copy of the current policy as an ``Agent``, with weights of its own."""
        metadata = self._current_metadata()
        policy = new_policy(metadata, self.network)
        policy.load_state_dict(self.model.policy.state_dict())
        return PolicyAgent(
            policy,
            metadata,
            self.network,
            self.encoder,
            deterministic=deterministic,
            seed=self.settings.seed + self.steps,
        )

    def save_policy(self, path: Path) -> None:
        save_policy(path, self.model.policy, self._current_metadata(), self.network)

    # ----- periodic duties ------------------------------------------------------------------

    def add_snapshot(self) -> None:
        """Save the learner as a snapshot and add it to every env's opponent pool."""
        self.save_policy(self.out / SNAPSHOTS / f"step_{self.steps:010d}.pt")
        self.vec_env.env_method("add_opponent", f"self@{self.steps}", self.learner_agent(False))

    def _restore_snapshots(self) -> None:
        if self.settings.cooperative:
            return
        files = [
            path
            for path in sorted((self.out / SNAPSHOTS).glob("step_*.pt"))
            if int(path.stem.removeprefix("step_")) <= self.info.steps
        ]
        for path in files[-self.settings.selfplay["max_snapshots"] :]:
            agent = load_agent(path, game=self.settings.game, deterministic=False)
            name = f"self@{int(path.stem.removeprefix('step_'))}"
            self.vec_env.env_method("add_opponent", name, agent)

    def checkpoint(self) -> None:
        """The whole model (with optimiser) and then its step count, each written
        atomically: a kill at any moment leaves a consistent checkpoint behind."""
        partial_path = self.out / "checkpoint.partial.zip"
        self.model.save(partial_path)
        partial_path.replace(self.out / CHECKPOINT)
        self.info.steps = self.steps
        self.info.elapsed_s = time.perf_counter() - self.started
        write_json(self.out / CHECKPOINT_INFO, asdict(self.info))
        self.save_policy(self.out / LAST_POLICY)

    def evaluate(self) -> dict[str, float]:
        """The greedy learner against each baseline (or as the whole team), on the fixed
        evaluation deals; logs the figures, keeps the best policy, returns win rates."""
        learner = self.learner_agent(deterministic=True)
        if self.settings.cooperative:
            team = self._team("learner", learner)
            values = {"team": team.metric_mean}
            rates = {"team": team.win_rate}
        else:
            rates, values = {}, {}
            for spec in self.settings.selfplay["baselines"]:
                rates[spec] = values[spec] = self._pair(learner, spec)
        self._keep_best(sum(values.values()) / len(values))
        return rates

    def _pair(self, learner: PolicyAgent, spec: str) -> float:
        settings = self.settings
        games = settings.run["eval_games"]
        seed = settings.seed + EVAL_SEED_OFFSET
        players = envs.make_game(settings.game, **settings.env_options).num_players
        schedule = pair_schedule("learner", spec, players, games, seed)
        agents = {"learner": learner, spec: spec}
        records = play_games(settings.game, settings.env_options, agents, schedule, seed)
        pair = pair_result("learner", spec, records)
        tally = Tally.of_records(records, "learner", pair.wins, pair.draws, pair.win_rate)
        self.log_row("eval", spec, tally)
        return pair.win_rate

    def _team(self, label: str, agent: PolicyAgent | str) -> TeamResult:
        """``agent`` at every seat of the evaluation deals."""
        settings = self.settings
        seed = settings.seed + EVAL_SEED_OFFSET
        players = envs.make_game(settings.game, **settings.env_options).num_players
        schedule = [((label,) * players, seed + g) for g in range(settings.run["eval_games"])]
        records = play_games(settings.game, settings.env_options, {label: agent}, schedule, seed)
        team = team_result(label, records, [], settings.best_metric)
        phase, opponent = ("eval", "self") if label == "learner" else ("baseline", label)
        tally = Tally.of_records(records, label, team.wins, 0, team.metric_mean)
        self.log_row(phase, opponent, tally)
        return team

    def log_baselines(self) -> None:
        """In a cooperative game the baselines play as whole teams: measured once, on the
        evaluation deals, as the lines a learning curve has to cross."""
        for spec in self.settings.selfplay["baselines"]:
            self._team(spec, spec)

    def _metric_value(self, win_rate: float, stats_mean: dict[str, float]) -> float:
        metric = self.settings.best_metric
        if metric == "win_rate":
            return win_rate
        if metric not in stats_mean:
            known = ", ".join(sorted(stats_mean))
            raise ValueError(f"best_metric {metric!r} is not a stats() figure ({known})")
        return stats_mean[metric]

    def tally_of_recent(self, games: list[RecentGame]) -> Tally:
        """The ``train`` row's figures of some recent training games against one opponent."""
        wins = sum(game.outcome == WIN for game in games)
        draws = sum(game.outcome == DRAW for game in games)
        figures = [game.metric_value for game in games if game.metric_value is not None]
        stats_mean = {self.settings.best_metric: sum(figures) / len(figures)} if figures else {}
        mean_return = sum(game.own_return for game in games) / len(games)
        metric_value = self._metric_value(wins / len(games), stats_mean)
        return Tally(len(games), wins, draws, mean_return, metric_value)

    def log_row(self, phase: str, opponent: str, tally: Tally) -> None:
        """One row of ``log.csv`` and the same figures in TensorBoard."""
        games, metric = tally.games, self.settings.best_metric
        low, high = wilson_interval(tally.wins, games)
        self.log.write(
            {
                "step": self.steps,
                "elapsed_s": f"{time.perf_counter() - self.started:.1f}",
                "phase": phase,
                "opponent": opponent,
                "games": games,
                "win_rate": f"{tally.wins / games:.4f}",
                "ci_low": f"{low:.4f}",
                "ci_high": f"{high:.4f}",
                "draw_rate": f"{tally.draws / games:.4f}",
                "mean_return": f"{tally.mean_return:.4f}",
                "metric": metric,
                "metric_value": f"{tally.metric_value:.4f}",
            }
        )
        self.model.logger.record(f"{phase}/win_rate_{opponent}", tally.wins / games)
        if metric != "win_rate":
            self.model.logger.record(f"{phase}/{metric}_{opponent}", tally.metric_value)

    def _keep_best(self, value: float) -> None:
        if value > self.info.best_value:
            self.info.best_value = value
            self.info.best_step = self.steps
            self.save_policy(self.out / BEST_POLICY)

    def imitate(self) -> ImitationResult:
        """The warm start (training/imitation.py): the policy copies the heuristic's play
        on ``imitation.games`` deals apart from the training and evaluation deals, then
        in ``imitation.dagger_rounds`` rounds on its own games; written to
        ``imitation.json`` and checkpointed, so a resumed run does not repeat it."""
        settings, options = self.settings, self.settings.imitation
        began = time.perf_counter()
        seed = settings.seed + IMITATION_SEED_OFFSET
        gather = partial(collect, settings.game, settings.env_options, self.encoder,
                         gamma=settings.ppo["gamma"])  # fmt: skip
        demos, split = gather(options["games"], seed)
        held_out = demos.part(slice(split, None))
        training = demos.part(slice(0, split))
        losses = self._fit(training, held_out, seed)
        rounds, games = options["dagger_rounds"], options["dagger_games"]
        for index in range(rounds):
            first = seed + options["games"] + index * games
            more, _ = gather(games, first, learner=sampling_actor(self.model.policy))
            training = Demonstrations.joined(training, more)
            losses = self._fit(training, held_out, first)
        result = ImitationResult(options["games"], len(training) + len(held_out),
                                 options["epochs"], *losses, time.perf_counter() - began,
                                 rounds, games)  # fmt: skip
        write_json(self.out / IMITATION, asdict(result))
        self.checkpoint()
        return result

    def _fit(
        self, training: Demonstrations, held_out: Demonstrations, seed: int
    ) -> tuple[float, float, float]:
        """Behaviour cloning on ``training``: the last epoch's losses and the held-out
        agreement."""
        options = self.settings.imitation
        return imitate(
            self.model.policy, training, held_out,
            epochs=options["epochs"], batch_size=options["batch_size"],
            learning_rate=options["learning_rate"], vf_coef=self.settings.ppo["vf_coef"],
            seed=seed,
        )  # fmt: skip

    # ----- the run --------------------------------------------------------------------------

    def run(self) -> CheckpointInfo:
        """Train up to ``settings.steps`` (after the warm start, if any, in a new run), then
        evaluate and checkpoint a last time."""
        fresh = self.info.steps == 0
        remaining = self.settings.steps - self.steps
        if remaining <= 0:
            self.vec_env.close()
            raise ValueError(f"the run is already at {self.steps} steps; ask for more --steps")
        if not self.resumed and self.settings.imitation["games"] > 0:
            result = self.imitate()
            dagger = f" and {result.dagger_rounds} DAgger rounds of {result.dagger_games}"
            print(
                f"imitation: {result.decisions} decisions of {result.games} heuristic games"
                f"{dagger if result.dagger_rounds else ''}, {result.epochs} epochs each in "
                f"{result.seconds:.0f} s; agreement with the heuristic on held-out games "
                f"{result.held_out_agreement:.3f}",
                file=sys.stderr,
            )
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
    """Counts training games per opponent for the progress bar and TensorBoard, and at the
    end of each rollout does the duties that are due: snapshot, evaluation, checkpoint."""

    def __init__(self, trainer: Trainer) -> None:
        super().__init__()
        self.trainer = trainer
        window = trainer.settings.run["window"]
        self.recent: defaultdict[str, deque[RecentGame]] = defaultdict(lambda: deque(maxlen=window))
        settings = trainer.settings
        self.every = {
            "checkpoint": settings.run["checkpoint_every"],
            "eval": settings.run["eval_every"],
        }
        if not settings.cooperative:
            self.every["snapshot"] = settings.selfplay["snapshot_every"]
        self.due: dict[str, int] = {}
        self.bar: tqdm | None = None

    def _on_training_start(self) -> None:
        steps = self.trainer.steps
        if steps == 0 and self.trainer.settings.cooperative:
            self.trainer.log_baselines()
        self.due = {duty: (steps // every + 1) * every for duty, every in self.every.items()}
        rollout = self.model.n_steps * self.training_env.num_envs
        self.bar = tqdm(
            total=final_step(steps, self.trainer.settings.steps, rollout),
            initial=steps,
            unit="step",
            disable=not self.trainer.progress,
            file=sys.stderr,
            mininterval=1.0,
        )

    def _on_step(self) -> bool:
        for done, info in zip(self.locals["dones"], self.locals["infos"], strict=True):
            if done and "outcome" in info:
                self._count_game(info)
        self.bar.update(self.training_env.num_envs)
        return True

    def _count_game(self, info: dict[str, Any]) -> None:
        """One finished training game; all snapshots count as one opponent, "self-play",
        and a cooperative game has only the "team"."""
        opponent = "self-play" if "self@" in info["opponent"] else info["opponent"]
        opponent = "team" if self.trainer.settings.cooperative else opponent
        metric = self.trainer.settings.best_metric
        self.recent[opponent].append(
            RecentGame(
                outcome=info["outcome"],
                own_return=info["returns"][info["seat"]],
                metric_value=info["stats"].get(metric),
            )
        )

    def _on_rollout_end(self) -> None:
        self._report_training_games()
        steps = self.trainer.steps
        for duty in ("snapshot", "eval", "checkpoint"):
            if duty in self.due and steps >= self.due[duty]:
                getattr(self, f"_do_{duty}")()
                self.due[duty] = (steps // self.every[duty] + 1) * self.every[duty]

    def _do_snapshot(self) -> None:
        self.trainer.add_snapshot()

    def _do_eval(self) -> None:
        if self.trainer.steps >= self.trainer.settings.steps:
            return  # the run ends after this rollout's update, with an evaluation of its own
        rates = self.trainer.evaluate()
        info = self.trainer.info
        self.bar.write(
            f"step {self.trainer.steps}: eval win rate "
            + ", ".join(f"{name} {rate:.3f}" for name, rate in rates.items())
            + f"; best {self.trainer.settings.best_metric} {info.best_value:.3f}"
            + f" at step {info.best_step}"
        )

    def _do_checkpoint(self) -> None:
        self.trainer.checkpoint()

    def _report_training_games(self) -> None:
        """The recent training games per opponent: a ``train`` row of ``log.csv`` each
        (and TensorBoard), and the progress bar's win rates."""
        postfix = {}
        for name, games in sorted(self.recent.items()):
            tally = self.trainer.tally_of_recent(list(games))
            self.trainer.log_row("train", name, tally)
            postfix[name] = f"{tally.wins / tally.games:.2f}"
            if self.trainer.settings.best_metric != "win_rate":
                postfix[f"{name} {self.trainer.settings.best_metric}"] = f"{tally.metric_value:.2f}"
        self.bar.set_postfix(postfix, refresh=False)

    def _on_training_end(self) -> None:
        self.bar.close()
