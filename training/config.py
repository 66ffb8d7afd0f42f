"""Per-game default settings of training and evaluation, read from ``configs.toml``.

The file is data: shared code asks "is this game cooperative?" or "which PPO settings?"
here and stays free of game names. A game without a table of its own gets ``[default]``.

Every table is a typed model (``GameConfig``, one model per sub-table) that refuses an
unknown key or a value of the wrong type: a typo must not pass silently. A game's table
lays over ``[default]`` and a run's overrides (``--set``) over that, key by key and
sub-tables merged key by key; each layer is checked as it is laid, so an error names the
layer (the file and table) and the key.
"""

from __future__ import annotations

import copy
import tomllib
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Annotated, Any, Literal, Self, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError, ValidationInfo, field_validator
from pydantic_core import ErrorDetails

from tabletop import envs
from tabletop.envs.core.spec import ENV_OPTIONS

CONFIG_PATH = Path(__file__).with_name("configs.toml")
DEFAULT_TABLE = "default"
DEFAULT_ENCODER = "flat"
"""The encoder of an env made without ``encoder`` (``envs.core.aec``)."""


class ConfigTable(BaseModel):
    """A table of settings: typed keys, an unknown key refused. Strict, because TOML and
    ``--set`` give typed values already: the text ``"256"`` is no step count."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    def overlaid(self, table: Mapping[str, Any], source: str = "", prefix: str = "") -> Self:
        """These settings with ``table``'s keys replacing them, sub-tables merged key by
        key; an error names ``source`` and the key (after ``prefix``, its table's path)."""
        return checked(type(self), merged(self.model_dump(), table), source, prefix)


class PPOSettings(ConfigTable):
    """``[ppo]``: MaskablePPO's keyword arguments (the rllib backend maps them)."""

    learning_rate: float
    n_steps: int
    batch_size: int
    n_epochs: int
    gamma: float
    gae_lambda: float
    clip_range: float
    ent_coef: float
    vf_coef: float


class NetworkSettings(ConfigTable):
    """``[network]``: ``agents.policy.NetworkSpec``'s fields."""

    net_arch: list[int]
    activation: str
    shared: list[int]
    rows: list[int]


class SelfPlaySettings(ConfigTable):
    """``[selfplay]``: the opponent pool of a competitive game (wrappers/opponents.py)."""

    baselines: list[str]
    snapshot_every: int
    baseline_share: float
    max_snapshots: int


class ImitationSettings(ConfigTable):
    """``[imitation]``: the warm start from the heuristic (training/imitation.py)."""

    games: int
    epochs: int
    batch_size: int
    learning_rate: float
    dagger_rounds: int
    dagger_games: int


Positive = Annotated[int, Field(gt=0)]
"""A count that must be at least 1 (a search of no iterations, a batch of no rows)."""
Share = Annotated[float, Field(ge=0.0, le=1.0)]


class ExItSettings(ConfigTable):
    """``[exit]``: expert iteration, ``tabletop train --algo exit`` (training/exit/)."""

    iterations: Positive
    """Search iterations per learner decision."""
    c_puct: Annotated[float, Field(gt=0.0)]
    search_batch: Positive
    """Leaves the search sends to the network together (``GuidedSettings.batch``)."""
    rollout: Literal["", "random", "heuristic"]
    """"": leaves valued by the network alone; else a rollout's return mixed into each
    leaf's value (``GuidedSettings.rollout``), so the search that teaches the network can
    be stronger than the network alone is."""
    mix: Share
    """The rollout's weight in a leaf's value (``GuidedSettings.mix``)."""
    depth: Annotated[int, Field(ge=0)]
    """Plies after which a rollout stops and the game's evaluation values the position
    (``GuidedSettings.depth``); 0: rollouts play to the end."""
    dirichlet_alpha: Annotated[float, Field(gt=0.0)]
    dirichlet_fraction: Share
    temperature: Annotated[float, Field(ge=0.0)]
    """Moves are drawn from the visits ** (1 / temperature) (0: the most visited) ..."""
    temperature_moves: Annotated[int, Field(ge=0)]
    """... for the learner's first ``temperature_moves`` decisions of each game."""
    target_temperature: Annotated[float, Field(ge=0.0)]
    """The policy's target at a decision: the visits ** (1 / target_temperature), normalised
    (1: the visit shares; 0: the most visited move alone, ties shared). Below 1 it sharpens
    the shares of a small search, flatter than a fine-tuned policy, towards its choice."""
    opponents: Literal["pool", "self"]
    """Competitive games: the opponent pool of ``[selfplay]``, or the learner's search at
    every seat."""
    games_per_iteration: Positive
    batch_size: Positive
    buffer_size: Positive
    """Decisions the replay buffer keeps (the oldest games leave first)."""
    replay_ratio: Annotated[float, Field(gt=0.0)]
    """How many batches a decision is drawn into, on average, while it is in the buffer:
    after each iteration's games the fit draws ``replay_ratio`` times their decisions in
    rows from the whole buffer. Passes over the whole buffer would fit each decision
    ``buffer_size / decisions per iteration`` times over and chase the oldest games."""
    learning_rate: Annotated[float, Field(gt=0.0)]
    value_weight: Annotated[float, Field(ge=0.0)]
    init: str
    """A policy file or run directory of the game to start from ("": the [imitation] warm
    start if it has games, else random weights)."""

    @field_validator("depth")
    @classmethod
    def _cuts_a_rollout(cls, depth: int, info: ValidationInfo) -> int:
        if depth and not info.data.get("rollout"):
            raise ValueError("a depth needs a rollout to cut short (rollout = random or heuristic)")
        return depth

    @field_validator("buffer_size")
    @classmethod
    def _holds_a_batch(cls, size: int, info: ValidationInfo) -> int:
        batch = info.data.get("batch_size")
        if batch is not None and size < batch:
            raise ValueError(f"the replay buffer must hold at least a batch ({batch} rows)")
        return size


class RLlibSettings(ConfigTable):
    """``[rllib]``: what only ``--backend rllib`` uses (docs/distributed.md)."""

    env_runners: int
    envs_per_env_runner: int
    train_batch: int
    episodes_to_numpy: bool
    restart_delay_s: float
    health_probe_timeout_s: float


class QuickSettings(ConfigTable):
    """``[quick]``: what ``--quick`` lays over ``[run]``."""

    checkpoint_every: int
    eval_every: int
    eval_games: int


class RunSettings(QuickSettings):
    """``[run]``: checkpoint and evaluation intervals, and the progress bar's window."""

    window: int


class GameConfig(ConfigTable):
    """A game's settings: ``[default]`` with the game's table laid over it.

    ``env`` (the game's options) and ``network_by_encoder`` (encoder -> ``[network]`` keys)
    take any key here: the game and its encoders check them (``run_network``)."""

    steps: int
    quick_steps: int
    envs: int
    subprocesses: bool
    seat: Literal["alternate", "random"] | int
    best_metric: str
    distribution_stats: list[str]
    env: dict[str, Any]
    ppo: PPOSettings
    network: NetworkSettings
    network_by_encoder: dict[str, dict[str, Any]]
    selfplay: SelfPlaySettings
    imitation: ImitationSettings
    rllib: RLlibSettings
    exit: ExItSettings
    run: RunSettings
    quick: QuickSettings


Table = TypeVar("Table", bound=ConfigTable)


def merged(base: Mapping[str, Any], override: Mapping[str, Any]) -> dict[str, Any]:
    """``base`` with ``override``'s keys replacing it, sub-tables merged key by key."""
    result = copy.deepcopy(dict(base))
    for key, value in override.items():
        if isinstance(value, Mapping) and isinstance(result.get(key), Mapping):
            result[key] = merged(result[key], value)
        else:
            result[key] = copy.deepcopy(value)
    return result


def checked(
    model: type[Table], data: Mapping[str, Any], source: str = "", prefix: str = ""
) -> Table:
    """``data`` as ``model``, or a ``ValueError`` naming ``source``, the key and the problem."""
    try:
        return model.model_validate(data)
    except ValidationError as error:
        errors = error.errors()  # a typo is also a missing key: name the typo
        first = next((e for e in errors if e["type"] == "extra_forbidden"), errors[0])
        problem = _problem(model, data, first, prefix)
        raise ValueError(f"{source}: {problem}" if source else problem) from None


def _problem(
    model: type[ConfigTable], data: Mapping[str, Any], error: ErrorDetails, prefix: str
) -> str:
    keys = _keys(data, error)
    setting = prefix + ".".join(keys)
    if error["type"] == "extra_forbidden":
        known = ", ".join(sorted(_table_model(model, keys[:-1]).model_fields))
        return f"unknown setting '{setting}'; known: {known}"
    if error["type"] == "missing":
        return f"setting '{setting}' is missing"
    return f"setting '{setting}': {error['msg']}, got {error['input']!r}"


def _keys(data: Mapping[str, Any], error: ErrorDetails) -> list[str]:
    """The keys of the setting ``error`` is about: its location, less the branches of a
    type union that pydantic adds to it (a missing key is not in ``data`` to walk)."""
    if error["type"] == "missing":
        return [str(part) for part in error["loc"]]
    keys, node = [], data
    for part in error["loc"]:
        if not (isinstance(node, Mapping) and part in node):
            break
        keys.append(str(part))
        node = node[part]
    return keys


def _table_model(model: type[ConfigTable], keys: list[str]) -> type[ConfigTable]:
    """The model of the table at ``keys``: a key refused as unknown is in a model's table."""
    for key in keys:
        model = model.model_fields[key].annotation  # type: ignore[assignment]
    return model


def read_configs(path: Path) -> dict[str, GameConfig]:
    """Every table of the configs file ``path`` checked: ``[default]`` whole, and each
    game's laid over it (keyed by the game's name)."""
    with path.open("rb") as file:
        tables = tomllib.load(file)
    for name, table in tables.items():
        if not isinstance(table, dict):
            raise ValueError(f"{path.name}: '{name}' must be a table, [default] or a game's")
    if DEFAULT_TABLE not in tables:
        raise ValueError(f"{path.name}: no [{DEFAULT_TABLE}] table")
    default = checked(GameConfig, tables.pop(DEFAULT_TABLE), f"{path.name} [{DEFAULT_TABLE}]")
    configs = {DEFAULT_TABLE: default}
    for name, table in tables.items():
        configs[name] = default.overlaid(table, f"{path.name} [{name}]")
    return configs


@cache
def _packaged_configs() -> dict[str, GameConfig]:
    return read_configs(CONFIG_PATH)


def game_settings(game_name: str) -> GameConfig:
    """The settings of ``game_name``: ``[default]`` overridden by the game's own table."""
    configs = _packaged_configs()
    return configs.get(game_name, configs[DEFAULT_TABLE])


def is_cooperative(game_name: str) -> bool:
    """Whether one team plays ``game_name``: its seats' payoffs are identical (its spec)."""
    return not envs.spec(game_name).competitive


def registered_name(name: str) -> str:
    """The registry's name of a game given as ``"regicide"`` or ``"regicide_v0"``: the
    key of its per-game settings."""
    return envs.spec(name).name


def check_env_table(game_name: str, env: Mapping[str, Any]) -> None:
    """Refuse a key of a run's ``[env]`` table that is no option of the game or of its env
    (``ENV_OPTIONS``): checked when a game is trained, because the keys name its options."""
    known = sorted({*envs.spec(game_name).options, *ENV_OPTIONS})
    unknown = sorted(set(env) - set(known))
    if unknown:
        raise ValueError(f"unknown setting 'env.{unknown[0]}'; known: {', '.join(known)}")


def run_network(
    game_name: str,
    config: GameConfig,
    overrides: Mapping[str, Any],
    env_options: Mapping[str, Any],
) -> NetworkSettings:
    """The network of a run: ``[network]``, then the game's ``[network_by_encoder]`` table
    of the run's encoder over it, then ``--set network.*`` over both. A game's network may
    need what one encoder offers (a pointer network needs an action structure); the table
    gives the others a network of their own, chosen by name in the config, while rows asked
    for with ``--set`` still reach the encoder and fail there with a clear error.
    The tables are checked here, when a game is trained, because they name its encoders.
    ``config`` is ``game_settings``'s, before ``overrides`` (checked already)."""
    if "network_by_encoder" in overrides:
        raise ValueError(
            "network_by_encoder is configs.toml's choice per encoder; "
            "--set network.KEY=VALUE sets the run's network, whatever its encoder"
        )
    encoders = envs.spec(game_name).encoders
    networks = {}
    for encoder_name, table in config.network_by_encoder.items():
        if encoder_name not in encoders:
            raise ValueError(
                f"network_by_encoder.{encoder_name}: {game_name} has no encoder "
                f"'{encoder_name}'; its encoders: {', '.join(sorted(encoders))}"
            )
        networks[encoder_name] = config.network.overlaid(
            table, prefix=f"network_by_encoder.{encoder_name}."
        )
    env = {**config.env, **overrides.get("env", {}), **env_options}
    network = networks.get(env.get("encoder", DEFAULT_ENCODER), config.network)
    return network.overlaid(overrides.get("network", {}), prefix="network.")
