"""The game registry: every tabletop game by name, imported only when asked for.

Lazy imports keep ``import tabletop.envs`` cheap and working even while a game module is
missing or broken; only the game you ask for is imported.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

from pettingzoo import AECEnv

from tabletop.envs.core.protocol import Game

REGISTRY: dict[str, str] = {
    "gold_and_dust": "tabletop.envs.gold_and_dust_v0",
    "kaleva": "tabletop.envs.kaleva_v0",
    "regicide": "tabletop.envs.regicide_v0",
}
"""Game name -> module providing ``env``, ``raw_env``, ``new_game``, ``ENCODERS``,
``heuristic_agent`` and ``BENCH_OPTIONS``. The versioned name is the module's last part."""


def names() -> list[str]:
    """The registered game names, unversioned and sorted."""
    return sorted(REGISTRY)


def env_module(name: str) -> ModuleType:
    """The module of game ``name``, given as ``"regicide"`` or versioned ``"regicide_v0"``."""
    return importlib.import_module(REGISTRY[_registered_name(name)])


def make(name: str, **options: Any) -> AECEnv:
    """The wrapped AEC env of game ``name``; ``options`` go to the module's ``env``."""
    return env_module(name).env(**options)


def make_game(name: str, **options: Any) -> Game:
    """The rules engine of game ``name``, configured by ``options`` (e.g. ``num_players``)."""
    return env_module(name).new_game(**options)


def _registered_name(name: str) -> str:
    if name in REGISTRY:
        return name
    for registered, module_path in REGISTRY.items():
        if module_path.rpartition(".")[2] == name:
            return registered
    known = ", ".join(f"{n} ({REGISTRY[n].rpartition('.')[2]})" for n in names())
    raise ValueError(f"unknown game {name!r}; known games: {known}")
