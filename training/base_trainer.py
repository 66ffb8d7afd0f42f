"""What a training run does besides learning, whichever backend learns (SB3 in
``trainer.py``, Ray RLlib in ``rllib/``): its directory and ``log.csv``, the opponent pool's
baselines, evaluation on fixed deals, the best and last policies, snapshots, the warm start
and the schedule of periodic duties. Both backends share it, so their runs mean the same
figures and write the same files."""

from __future__ import annotations

import csv
import json
import sys
import time
from abc import ABC, abstractmethod
from collections import defaultdict, deque
from dataclasses import asdict, dataclass, replace
from functools import partial
from pathlib import Path
from typing import Any

import torch
from tqdm import tqdm

from tabletop import envs
from tabletop.agents import make_agent
from tabletop.agents.outcome import WIN
from tabletop.agents.policy import (
    NetworkSpec,
    PolicyAgent,
    PolicyMetadata,
    env_metadata,
    new_policy,
    save_policy,
)
from tabletop.matches.records import GameRecord
from tabletop.matches.schedules import pair_schedule, play_games
from tabletop.matches.standings import TeamResult, pair_result, team_result
from tabletop.matches.tally import Tally
from tabletop.training.imitation import (
    Demonstrations,
    ImitationResult,
    collect,
    imitate,
    sampling_actor,
)
from tabletop.training.runs import (
    BEST_POLICY,
    CHECKPOINT_INFO,
    EVAL_SEED_OFFSET,
    IMITATION,
    LAST_POLICY,
    LOG,
    LOG_FIELDS,
    SETTINGS,
    SNAPSHOTS,
    CheckpointInfo,
    TrainSettings,
    delete_run,
    write_json,
)
from tabletop.wrappers import OpponentPool

IMITATION_SEED_OFFSET = 2_000_000
"""The warm start's deals are seeds ``seed + IMITATION_SEED_OFFSET + k``, apart from the
training deals and from the evaluation deals (``EVAL_SEED_OFFSET``)."""

TORCH_THREADS = 1
"""Torch threads of the learner process. PPO's small matrices gain nothing from a second
thread, and on a busy machine idle OpenMP threads spin: measured on 2 shared cores, one
thread trained 17-30x faster than two (0.5-0.8 vs 14-38 ms of CPU per step)."""


def opponent_pool(settings: TrainSettings, seed: int) -> OpponentPool | None:
    """The baselines of a competitive game's pool (snapshots join it during the run);
    None for a cooperative game, whose every seat is the learner's."""
    if settings.cooperative:
        return None
    baselines = {
        spec: make_agent(spec, settings.game, seed + index)
        for index, spec in enumerate(settings.selfplay.baselines)
    }
    return OpponentPool(
        baselines,
        baseline_share=settings.selfplay.baseline_share,
        max_snapshots=settings.selfplay.max_snapshots,
    )


def snapshot_name(step: int) -> str:
    """A snapshot's name in the opponent pool and in the ``opponent`` column of games."""
    return f"self@{step}"


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
class RowFigures:
    """The figures of one ``log.csv`` row: some games seen from one side."""

    tally: Tally
    mean_return: float
    metric_value: float

    @classmethod
    def of_records(
        cls, records: list[GameRecord], label: str, tally: Tally, metric_value: float
    ) -> RowFigures:
        returns = [record.side_return(label) for record in records]
        return cls(tally, sum(returns) / len(records), metric_value)


@dataclass(frozen=True)
class RecentGame:
    """A finished training game, as the learner's env reported it."""

    outcome: str
    own_return: float
    metric_value: float | None
    """The game's ``best_metric`` figure (None for ``win_rate``, which is not a stats key)."""


# ----- the run ------------------------------------------------------------------------------


class BaseTrainer(ABC):
    """One run's directory, log and duties; a backend adds the learning. The directory is
    written from ``open_run`` on, which a backend calls once its setup has passed."""

    def __init__(
        self,
        settings: TrainSettings,
        *,
        resume: bool,
        progress: bool = True,
        overwrite: bool = False,
    ) -> None:
        torch.set_num_threads(TORCH_THREADS)
        self.settings = settings
        self.out = Path(settings.out)
        self.overwrite = overwrite
        self.progress = progress
        self.network = NetworkSpec(**settings.network.model_dump())
        probe = envs.make(settings.game, **settings.env_options)
        self.encoder = probe.unwrapped.encoder
        self.game = probe.unwrapped.game
        self.metadata = env_metadata(probe, seed=settings.seed, game_options=settings.game_options)
        self.info = self._read_checkpoint_info() if resume else CheckpointInfo()
        self.started = time.perf_counter() - self.info.elapsed_s
        self.resumed = resume

    # ----- what a backend provides ----------------------------------------------------------

    @property
    @abstractmethod
    def steps(self) -> int:
        """Learner decisions so far."""

    @abstractmethod
    def current_policy(self) -> torch.nn.Module:
        """The learner's policy network (the project's policy class), current weights."""

    @abstractmethod
    def has_checkpoint(self, steps: int) -> bool:
        """Whether the run directory holds the backend's checkpoint of step ``steps`` (the
        one ``checkpoint.json`` names) to resume from."""

    @abstractmethod
    def record_scalar(self, tag: str, value: float) -> None:
        """One TensorBoard figure at the current step."""

    @abstractmethod
    def add_snapshot(self) -> None:
        """Freeze the learner into the opponent pool (and ``snapshots/``)."""

    @abstractmethod
    def checkpoint(self) -> None:
        """Write everything a resume needs, atomically."""

    def open_run(self) -> None:
        """The run directory, written only once everything that can refuse the run (a Ray
        to join, the env's options, the network) has passed, so that a refused run leaves
        the directory as it was: a new run's ``settings.json``, after ``--overwrite`` has
        deleted the old run's files; then ``log.csv``, cut back to the checkpoint on a resume."""
        if not self.resumed:
            if self.overwrite:
                delete_run(self.out)
            self.out.mkdir(parents=True, exist_ok=True)
            write_json(self.out / SETTINGS, self.settings.to_json())
        self.log = RunLog(self.out / LOG, self.info.steps if self.resumed else None)

    def _read_checkpoint_info(self) -> CheckpointInfo:
        path = self.out / CHECKPOINT_INFO
        info = CheckpointInfo(**json.loads(path.read_text("utf-8"))) if path.exists() else None
        if info is None or not self.has_checkpoint(info.steps):
            raise FileNotFoundError(
                f"{self.out} holds no checkpoint to resume from; --overwrite starts the run over"
            )
        return info

    def write_checkpoint_info(self) -> None:
        """Where the run stood, written last: a checkpoint exists once this names it."""
        self.info.steps = self.steps
        self.info.elapsed_s = time.perf_counter() - self.started
        write_json(self.out / CHECKPOINT_INFO, asdict(self.info))

    # ----- the learner as a policy ----------------------------------------------------------

    def current_metadata(self) -> PolicyMetadata:
        return replace(self.metadata, training_steps=self.steps)

    def learner_agent(self, deterministic: bool) -> PolicyAgent:
        """A copy of the current policy as an ``Agent``, with weights of its own."""
        metadata = self.current_metadata()
        policy = new_policy(metadata, self.network)
        policy.load_state_dict(self.current_policy().state_dict())
        return PolicyAgent(
            policy,
            metadata,
            self.network,
            self.encoder,
            deterministic=deterministic,
            seed=self.settings.seed + self.steps,
        )

    def save_policy(self, path: Path) -> None:
        save_policy(path, self.current_policy(), self.current_metadata(), self.network)

    def save_snapshot(self) -> Path:
        """The learner's policy in ``snapshots/``, named by its step."""
        path = self.out / SNAPSHOTS / f"step_{self.steps:010d}.pt"
        self.save_policy(path)
        return path

    def saved_snapshots(self) -> list[Path]:
        """The snapshot files a resumed run's pool holds again: those up to the checkpoint,
        the ``max_snapshots`` most recent."""
        files = [
            path
            for path in sorted((self.out / SNAPSHOTS).glob("step_*.pt"))
            if int(path.stem.removeprefix("step_")) <= self.info.steps
        ]
        return files[-self.settings.selfplay.max_snapshots :]

    def save_last_policy(self) -> None:
        self.save_policy(self.out / LAST_POLICY)

    # ----- evaluation -----------------------------------------------------------------------

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
            for spec in self.settings.selfplay.baselines:
                rates[spec] = values[spec] = self._pair(learner, spec)
        self._keep_best(sum(values.values()) / len(values))
        return rates

    def _pair(self, learner: PolicyAgent, spec: str) -> float:
        settings = self.settings
        games = settings.run.eval_games
        seed = settings.seed + EVAL_SEED_OFFSET
        players = envs.make_game(settings.game, **settings.game_options).num_players
        schedule = pair_schedule("learner", spec, players, games, seed)
        agents = {"learner": learner, spec: spec}
        records = play_games(settings.game, settings.game_options, agents, schedule, seed)
        pair = pair_result("learner", spec, records)
        tally = Tally(pair.wins, pair.draws, pair.losses)
        self.log_row("eval", spec, RowFigures.of_records(records, "learner", tally, pair.win_rate))
        return pair.win_rate

    def _team(self, label: str, agent: PolicyAgent | str) -> TeamResult:
        """``agent`` at every seat of the evaluation deals."""
        settings = self.settings
        seed = settings.seed + EVAL_SEED_OFFSET
        players = envs.make_game(settings.game, **settings.game_options).num_players
        schedule = [((label,) * players, seed + g) for g in range(settings.run.eval_games)]
        records = play_games(settings.game, settings.game_options, {label: agent}, schedule, seed)
        team = team_result(label, records, [], settings.best_metric)
        phase, opponent = ("eval", "self") if label == "learner" else ("baseline", label)
        tally = Tally.of_wins(team.wins, team.games)
        self.log_row(
            phase, opponent, RowFigures.of_records(records, label, tally, team.metric_mean)
        )
        return team

    def log_baselines(self) -> None:
        """In a cooperative game the baselines play as whole teams: measured once, on the
        evaluation deals, as the lines a learning curve has to cross."""
        for spec in self.settings.selfplay.baselines:
            self._team(spec, spec)

    def _metric_value(self, win_rate: float, stats_mean: dict[str, float]) -> float:
        metric = self.settings.best_metric
        if metric == "win_rate":
            return win_rate
        if metric not in stats_mean:
            known = ", ".join(sorted(stats_mean))
            raise ValueError(f"best_metric {metric!r} is not a stats() figure ({known})")
        return stats_mean[metric]

    def figures_of_recent(self, games: list[RecentGame]) -> RowFigures:
        """The ``train`` row's figures of some recent training games against one opponent."""
        tally = Tally.of(game.outcome for game in games)
        figures = [game.metric_value for game in games if game.metric_value is not None]
        stats_mean = {self.settings.best_metric: sum(figures) / len(figures)} if figures else {}
        mean_return = sum(game.own_return for game in games) / len(games)
        metric_value = self._metric_value(tally.wins / len(games), stats_mean)
        return RowFigures(tally, mean_return, metric_value)

    def log_row(self, phase: str, opponent: str, figures: RowFigures) -> None:
        """One row of ``log.csv`` and the same figures in TensorBoard."""
        tally, metric = figures.tally, self.settings.best_metric
        games = tally.games
        low, high = tally.interval(WIN)
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
                "mean_return": f"{figures.mean_return:.4f}",
                "metric": metric,
                "metric_value": f"{figures.metric_value:.4f}",
            }
        )
        self.record_scalar(f"{phase}/win_rate_{opponent}", tally.wins / games)
        if metric != "win_rate":
            self.record_scalar(f"{phase}/{metric}_{opponent}", figures.metric_value)

    def _keep_best(self, value: float) -> None:
        if value > self.info.best_value:
            self.info.best_value = value
            self.info.best_step = self.steps
            self.save_policy(self.out / BEST_POLICY)

    # ----- the warm start -------------------------------------------------------------------

    def imitate(self, policy: torch.nn.Module) -> ImitationResult:
        """The warm start (training/imitation.py): ``policy`` copies the heuristic's play
        on ``imitation.games`` deals apart from the training and evaluation deals, then in
        ``imitation.dagger_rounds`` rounds on its own games; written to ``imitation.json``.
        The caller checkpoints afterwards, so a resumed run does not repeat it."""
        settings, options = self.settings, self.settings.imitation
        began = time.perf_counter()
        seed = settings.seed + IMITATION_SEED_OFFSET
        gather = partial(collect, settings.game, settings.game_options, self.encoder,
                         gamma=settings.ppo.gamma)  # fmt: skip
        demos, split = gather(options.games, seed)
        held_out = demos.part(slice(split, None))
        training = demos.part(slice(0, split))
        losses = self._fit(policy, training, held_out, seed)
        rounds, games = options.dagger_rounds, options.dagger_games
        for index in range(rounds):
            first = seed + options.games + index * games
            more, _ = gather(games, first, learner=sampling_actor(policy))
            training = Demonstrations.joined(training, more)
            losses = self._fit(policy, training, held_out, first)
        result = ImitationResult(options.games, len(training) + len(held_out),
                                 options.epochs, *losses, time.perf_counter() - began,
                                 rounds, games)  # fmt: skip
        write_json(self.out / IMITATION, asdict(result))
        return result

    def _fit(
        self,
        policy: torch.nn.Module,
        training: Demonstrations,
        held_out: Demonstrations,
        seed: int,
    ) -> tuple[float, float, float]:
        """Behaviour cloning on ``training``: the last epoch's losses and the held-out
        agreement."""
        options = self.settings.imitation
        return imitate(
            policy, training, held_out,
            epochs=options.epochs, batch_size=options.batch_size,
            learning_rate=options.learning_rate, vf_coef=self.settings.ppo.vf_coef,
            seed=seed,
        )  # fmt: skip

    def wants_warm_start(self) -> bool:
        return not self.resumed and self.settings.imitation.games > 0

    def report_warm_start(self, result: ImitationResult) -> None:
        dagger = f" and {result.dagger_rounds} DAgger rounds of {result.dagger_games}"
        print(
            f"imitation: {result.decisions} decisions of {result.games} heuristic games"
            f"{dagger if result.dagger_rounds else ''}, {result.epochs} epochs each in "
            f"{result.seconds:.0f} s; agreement with the heuristic on held-out games "
            f"{result.held_out_agreement:.3f}",
            file=sys.stderr,
        )

    def check_steps_left(self) -> int:
        remaining = self.settings.steps - self.steps
        if remaining <= 0:
            raise ValueError(f"the run is already at {self.steps} steps; ask for more --steps")
        return remaining


# ----- progress and periodic duties ---------------------------------------------------------


class RunProgress:
    """Counts training games per opponent for ``log.csv``'s ``train`` rows and the progress
    bar, and at the end of each rollout does the duties that are due: snapshot, evaluation,
    checkpoint."""

    def __init__(self, trainer: BaseTrainer) -> None:
        self.trainer = trainer
        settings = trainer.settings
        window = settings.run.window
        self.recent: defaultdict[str, deque[RecentGame]] = defaultdict(lambda: deque(maxlen=window))
        self.every = {
            "checkpoint": settings.run.checkpoint_every,
            "eval": settings.run.eval_every,
        }
        if not settings.cooperative:
            self.every["snapshot"] = settings.selfplay.snapshot_every
        steps = trainer.steps
        self.due = {duty: (steps // every + 1) * every for duty, every in self.every.items()}
        self.bar: tqdm | None = None

    def start(self, total: int) -> None:
        """The progress bar up to ``total`` steps; a new cooperative run first measures
        its baselines."""
        steps = self.trainer.steps
        if steps == 0 and self.trainer.settings.cooperative:
            self.trainer.log_baselines()
        self.bar = tqdm(
            total=total,
            initial=steps,
            unit="step",
            disable=not self.trainer.progress,
            file=sys.stderr,
            mininterval=1.0,
        )

    def count_game(self, info: dict[str, Any]) -> None:
        """One finished training game (its env's final info); all snapshots count as one
        opponent, "self-play", and a cooperative game has only the "team"."""
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

    def advance(self, steps: int) -> None:
        self.bar.update(steps)

    def end_of_rollout(self) -> None:
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
        metric = self.trainer.settings.best_metric
        for name, games in sorted(self.recent.items()):
            figures = self.trainer.figures_of_recent(list(games))
            self.trainer.log_row("train", name, figures)
            postfix[name] = f"{figures.tally.wins / figures.tally.games:.2f}"
            if metric != "win_rate":
                postfix[f"{name} {metric}"] = f"{figures.metric_value:.2f}"
        self.bar.set_postfix(postfix, refresh=False)

    def close(self) -> None:
        self.bar.close()
