"""A training run: the settings that define it and the files of its run directory.

Shared by the ``train`` command (``train.py``, which reads flags and configs) and the
machinery that trains (``trainer.py``, which needs torch), so that neither imports the other.
"""

from __future__ import annotations

import copy
import json
import math
import shutil
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from tabletop.envs.core.spec import ENV_OPTIONS
from tabletop.training.config import (
    DEFAULT_TABLE,
    ConfigTable,
    ExItSettings,
    ImitationSettings,
    NetworkSettings,
    PPOSettings,
    RLlibSettings,
    RunSettings,
    SelfPlaySettings,
    check_env_table,
    game_settings,
    is_cooperative,
    run_network,
)

CHECKPOINT = "checkpoint.zip"
EXIT_CHECKPOINT = "checkpoint.pt"
"""An ``--algo exit`` run's checkpoint: network, optimiser and replay buffer."""
CHECKPOINT_INFO = "checkpoint.json"
SETTINGS = "settings.json"
LOG = "log.csv"
BEST_POLICY = "best_policy.pt"
LAST_POLICY = "last_policy.pt"
SNAPSHOTS = "snapshots"
TENSORBOARD = "tb"
IMITATION = "imitation.json"
RLLIB_CHECKPOINTS = "checkpoints"
"""The ``rllib`` backend's checkpoints: one directory per checkpoint, named by its step."""
RUN_FILES = (
    SETTINGS, CHECKPOINT, EXIT_CHECKPOINT, CHECKPOINT_INFO, LOG, BEST_POLICY, LAST_POLICY,
    IMITATION,
)  # fmt: skip
RUN_DIRS = (SNAPSHOTS, TENSORBOARD, RLLIB_CHECKPOINTS)
"""What a run writes in its directory: ``--overwrite`` deletes these and nothing else."""
BACKENDS = ("sb3", "rllib")
"""What can learn a run: Stable-Baselines3's MaskablePPO, or Ray RLlib's PPO."""
ALGOS = ("ppo", "exit")
"""How a run learns: PPO (on either backend), or expert iteration (``training/exit/``)."""
EVAL_SEED_OFFSET = 1_000_000
"""Evaluation deals are seeds ``seed + EVAL_SEED_OFFSET + k``: the same at every evaluation
(so that curves compare like with like) and apart from the training deals."""
LOG_FIELDS = (
    "step",
    "elapsed_s",
    "phase",
    "opponent",
    "games",
    "win_rate",
    "ci_low",
    "ci_high",
    "draw_rate",
    "mean_return",
    "metric",
    "metric_value",
)
"""Columns of ``log.csv``: one row per opponent at each report; ``phase`` is ``train``
(recent training games), ``eval`` (periodic evaluation) or ``baseline`` (the baselines'
own figures in a cooperative game, measured once)."""


@dataclass
class TrainSettings:
    """Everything that defines a run; saved in the run directory (``to_json``) and reused
    by --resume (``from_json``). Each configs.toml table is its typed model."""

    game: str
    steps: int
    seed: int
    envs: int
    out: str
    env_options: dict[str, Any]
    cooperative: bool
    seat: str | int
    best_metric: str
    ppo: PPOSettings
    network: NetworkSettings
    selfplay: SelfPlaySettings
    run: RunSettings
    subprocesses: bool
    """Run the envs in SubprocVecEnv workers (when more than one) instead of in-process."""
    imitation: ImitationSettings
    """The warm start from the heuristic (training/imitation.py); ``games`` 0 is none."""
    backend: str
    """What learns: ``sb3`` (MaskablePPO on this machine) or ``rllib`` (Ray RLlib's PPO)."""
    rllib: RLlibSettings
    """The ``rllib`` backend's own settings (configs.toml ``[default.rllib]``)."""
    algo: str
    """How the run learns: ``ppo`` (on ``backend``) or ``exit`` (expert iteration)."""
    exit: ExItSettings
    """Expert iteration's settings (configs.toml ``[default.exit]``)."""

    def __post_init__(self) -> None:
        if self.backend not in BACKENDS:
            raise ValueError(f"unknown backend {self.backend!r}; known: {', '.join(BACKENDS)}")
        if self.algo not in ALGOS:
            raise ValueError(f"unknown algo {self.algo!r}; known: {', '.join(ALGOS)}")
        if self.algo == "exit" and self.backend != "sb3":
            raise ValueError(
                f"--backend {self.backend} trains PPO; --algo exit learns in this process"
            )

    def to_json(self) -> dict[str, Any]:
        """``settings.json``: the fields in order, each table as a JSON object; a PPO run's
        file holds no ``algo`` and no ``exit`` table: they are expert iteration's."""
        skipped = () if self.algo == "exit" else EXIT_FIELDS
        return {
            item.name: _plain(getattr(self, item.name))
            for item in fields(self)
            if item.name not in skipped
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TrainSettings:
        """The settings ``to_json`` saved, each table checked as its model. A run saved
        before a setting existed gets what it meant then: in-process envs, the ``sb3``
        backend, PPO, and ``[default]``'s value of a missing table key (no warm start)."""
        default = game_settings(DEFAULT_TABLE)
        tables = {
            name: getattr(default, name).overlaid(data.get(name, {}), SETTINGS, f"{name}.")
            for name in SAVED_TABLES
        }
        return cls(**{"subprocesses": False, "backend": "sb3", "algo": "ppo", **data, **tables})

    @property
    def game_options(self) -> dict[str, Any]:
        """The rules engine's options among ``env_options``: what ``make_game`` takes, and
        what a policy's metadata names. The env's own (``encoder``, ``max_plies``, ...)
        configure the observation and the env, not the game."""
        return {key: value for key, value in self.env_options.items() if key not in ENV_OPTIONS}

    @property
    def in_subprocesses(self) -> bool:
        """Whether the envs run in SubprocVecEnv workers: asked for, and more than one."""
        return self.subprocesses and self.envs > 1

    @classmethod
    def from_config(
        cls,
        game: str,
        *,
        out: str,
        steps: int | None = None,
        seed: int = 0,
        n_envs: int | None = None,
        quick: bool = False,
        env_options: dict[str, Any] | None = None,
        overrides: dict[str, Any] | None = None,
        backend: str = "sb3",
        algo: str = "ppo",
    ) -> TrainSettings:
        """The game's configured settings, with the command line's choices on top;
        ``overrides`` replaces config keys (sub-tables merged), e.g. for tiny test runs.
        Under the ``rllib`` backend, ``envs`` is the games each sampling process steps
        together (``rllib.envs_per_env_runner`` unless given)."""
        configured = game_settings(game)
        config = configured.overlaid(overrides or {})
        check_env_table(game, config.env)
        network = run_network(game, configured, overrides or {}, env_options or {})
        run = config.run.overlaid(config.quick.model_dump()) if quick else config.run
        default_steps = config.quick_steps if quick else config.steps
        default_envs = config.rllib.envs_per_env_runner if backend == "rllib" else config.envs
        return cls(
            game=game,
            steps=steps if steps is not None else default_steps,
            seed=seed,
            envs=n_envs if n_envs is not None else default_envs,
            out=out,
            env_options={**config.env, **(env_options or {})},
            cooperative=is_cooperative(game),
            seat=config.seat,
            best_metric=config.best_metric,
            ppo=config.ppo,
            network=network,
            selfplay=config.selfplay,
            run=run,
            subprocesses=config.subprocesses,
            imitation=config.imitation,
            backend=backend,
            rllib=config.rllib,
            algo=algo,
            exit=config.exit,
        )


SAVED_TABLES = ("ppo", "network", "selfplay", "run", "imitation", "rllib", "exit")
"""The configs.toml tables a run keeps, each a typed model in ``TrainSettings``."""
EXIT_FIELDS = ("algo", "exit")
"""What only an ``--algo exit`` run's ``settings.json`` holds."""


def _plain(value: Any) -> Any:
    """A field's value as data of its own (a table's dict, a copy), as ``asdict`` gives it."""
    return value.model_dump() if isinstance(value, ConfigTable) else copy.deepcopy(value)


@dataclass
class CheckpointInfo:
    """What a checkpoint adds to the model: where the run stood when it was written."""

    steps: int = 0
    best_value: float = -math.inf
    best_step: int = -1
    elapsed_s: float = 0.0


def write_json(path: Path, document: dict[str, Any]) -> None:
    """Write ``path`` whole or not at all (a kill mid-write leaves the old file)."""
    partial_path = path.with_name(path.name + ".partial")
    partial_path.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    partial_path.replace(path)


def run_files(out: Path) -> list[Path]:
    """The files and directories of a run in ``out`` (none if there is no run)."""
    return [out / name for name in (*RUN_FILES, *RUN_DIRS) if (out / name).exists()]


def delete_run(out: Path) -> None:
    """Delete the run in ``out``; other files there (e.g. evaluation results) stay."""
    for path in run_files(out):
        if path.is_dir():
            shutil.rmtree(path)
        else:
            path.unlink()
