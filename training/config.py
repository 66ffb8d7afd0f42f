"""Per-game default settings of training and evaluation, read from ``configs.toml``.

The file is data: shared code asks "is this game cooperative?" or "which PPO settings?"
here and stays free of game names. A game without a table of its own gets ``[default]``.
"""

from __future__ import annotations

import copy
import tomllib
from functools import cache
from pathlib import Path
from typing import Any

from tabletop import envs

CONFIG_PATH = Path(__file__).with_name("configs.toml")
DEFAULT_ENCODER = "flat"
"""The encoder of an env made without ``encoder`` (``envs.core.aec``)."""


@cache
def _all_configs() -> dict[str, Any]:
    with CONFIG_PATH.open("rb") as file:
        return tomllib.load(file)


def merged(base: dict[str, Any], override: dict[str, Any]) -> dict[str, Any]:
    """``base`` with ``override``'s keys replacing it, sub-tables merged key by key."""
    result = copy.deepcopy(base)
    for key, value in override.items():
        if isinstance(value, dict) and isinstance(result.get(key), dict):
            result[key] = merged(result[key], value)
        else:
            result[key] = copy.deepcopy(value)
    return result


def check_known_keys(base: dict[str, Any], override: dict[str, Any], where: str = "") -> None:
    """Reject override keys that ``base`` does not have: a typo must not pass silently.
    Empty tables (like ``env``, the game's own options) accept any key."""
    for key, value in override.items():
        if base and key not in base:
            raise ValueError(f"unknown setting '{where}{key}'; known: {', '.join(sorted(base))}")
        if isinstance(value, dict) and isinstance(base.get(key), dict):
            check_known_keys(base[key], value, f"{where}{key}.")


def game_config(game_name: str) -> dict[str, Any]:
    """The settings of ``game_name``: ``[default]`` overridden by the game's own table, and
    ``cooperative`` from its spec (identical payoffs: one team)."""
    configs = _all_configs()
    config = merged(configs["default"], configs.get(game_name, {}))
    config["cooperative"] = not envs.spec(game_name).competitive
    return config


def registered_name(name: str) -> str:
    """The registry's name of a game given as ``"regicide"`` or ``"regicide_v0"``: the
    key of its per-game settings."""
    return envs.spec(name).name


def run_network(
    game_name: str, config: dict[str, Any], overrides: dict[str, Any], env_options: dict[str, Any]
) -> dict[str, Any]:
    """The network of a run: ``[network]``, then the game's ``[network_by_encoder]`` table
    of the run's encoder over it, then ``--set network.*`` over both. A game's network may
    need what one encoder offers (a pointer network needs an action structure); the table
    gives the others a network of their own, chosen by name in the config, while rows asked
    for with ``--set`` still reach the encoder and fail there with a clear error.
    The tables are checked here (not at startup) because they name the game's encoders.
    ``config`` is ``game_config``'s, before ``overrides``."""
    if "network_by_encoder" in overrides:
        raise ValueError(
            "network_by_encoder is configs.toml's choice per encoder; "
            "--set network.KEY=VALUE sets the run's network, whatever its encoder"
        )
    by_encoder = config["network_by_encoder"]
    encoders = envs.spec(game_name).encoders
    for encoder_name, table in by_encoder.items():
        if encoder_name not in encoders:
            raise ValueError(
                f"network_by_encoder.{encoder_name}: {game_name} has no encoder "
                f"'{encoder_name}'; its encoders: {', '.join(sorted(encoders))}"
            )
        if not isinstance(table, dict):
            raise ValueError(f"network_by_encoder.{encoder_name} must be a table of [network] keys")
        check_known_keys(config["network"], table, f"network_by_encoder.{encoder_name}.")
    env = {**config["env"], **overrides.get("env", {}), **env_options}
    encoder = env.get("encoder", DEFAULT_ENCODER)
    network = merged(config["network"], by_encoder.get(encoder, {}))
    return merged(network, overrides.get("network", {}))
