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
