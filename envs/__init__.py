"""The game registry: every tabletop game by name, imported only when asked for.

Lazy imports keep ``import tabletop.envs`` cheap and working even while a game module is
missing or broken; only the game you ask for is imported. Each registered module exports
``SPEC`` (a ``GameSpec``), ``raw_env`` and ``env``; the registry checks them the first time
the module is loaded, so a module that does not meet the contract fails at once, by name.

Importing this package also registers every game in PettingZoo's registry as
``tabletop/<name>-v<N>``: ``pettingzoo.make("aec", "tabletop/kaleva-v0", **options)`` is
``make("kaleva", **options)``, game and env options alike (``encoder``, ``max_plies``,
...). PettingZoo's ``max_cycles`` is not one of them: a turn-based game counts plies, and
passing it is an unknown-option error naming ``max_plies``.
"""

from __future__ import annotations

import functools
import importlib
from types import ModuleType
from typing import Any

import pettingzoo
from pettingzoo import AECEnv

from tabletop.envs.core.protocol import Game
from tabletop.envs.core.spec import GameSpec, GameSpecError

REGISTRY: dict[str, str] = {
    "gold_and_dust": "tabletop.envs.gold_and_dust_v0",
    "hkk": "tabletop.envs.hkk_v0",
    "kaleva": "tabletop.envs.kaleva_v0",
    "kult": "tabletop.envs.kult_v0",
    "regicide": "tabletop.envs.regicide_v0",
}
"""Game name -> its env module (``tabletop.envs.<name>_v<N>``). Adding a game is one line
here (docs/adding-a-game.md); tests register their own games with ``monkeypatch.setitem``."""

PETTINGZOO_NAMESPACE = "tabletop"
"""The namespace of the games' ids in PettingZoo's registry (``tabletop/kaleva-v0``)."""

_checked: dict[str, object] = {}
"""Game name -> the module object that passed ``_check_module`` under that name."""


def names() -> list[str]:
    """The registered game names, unversioned and sorted."""
    return sorted(REGISTRY)


def env_module(name: str) -> ModuleType:
    """The module of game ``name``, given as ``"regicide"`` or versioned ``"regicide_v0"``."""
    registered = _registered_name(name)
    module = importlib.import_module(REGISTRY[registered])
    if _checked.get(registered) is not module:
        _check_module(registered, module)
        _checked[registered] = module
    return module


def spec(name: str) -> GameSpec:
    """The declared facts of game ``name`` (players, payoff kind, encoders, options, …)."""
    return env_module(name).SPEC


def make(name: str, **options: Any) -> AECEnv:
    """The wrapped AEC env of game ``name``; ``options`` go to the module's ``env``."""
    return env_module(name).env(**options)


def make_game(name: str, **options: Any) -> Game:
    """The rules engine of game ``name``, configured by ``options`` (e.g. ``num_players``)."""
    return spec(name).new_game(**options)


def _check_module(name: str, module: ModuleType) -> None:
    """Raise ``GameSpecError`` unless ``module`` meets the env-module contract for ``name``."""
    game_spec = getattr(module, "SPEC", None)
    if not isinstance(game_spec, GameSpec):
        raise GameSpecError(f"{module.__name__}: no SPEC (a GameSpec) for game {name!r}")
    if game_spec.name != name:
        raise GameSpecError(f"{module.__name__}: SPEC.name {game_spec.name!r} is not {name!r}")
    for constructor in ("raw_env", "env"):
        if not callable(getattr(module, constructor, None)):
            raise GameSpecError(f"{module.__name__}: no {constructor}() (env_constructors(SPEC))")
    game_spec.validate(module.__name__)


def _registered_name(name: str) -> str:
    if name in REGISTRY:
        return name
    for registered, module_path in REGISTRY.items():
        if module_path.rpartition(".")[2] == name:
            return registered
    known = ", ".join(f"{n} ({REGISTRY[n].rpartition('.')[2]})" for n in names())
    raise ValueError(f"unknown game {name!r}; known games: {known}")


def pettingzoo_id(name: str) -> str:
    """Game ``name``'s id in PettingZoo's registry, e.g. ``"tabletop/kaleva-v0"``."""
    module_name = REGISTRY[_registered_name(name)].rpartition(".")[2]
    game, _, version = module_name.rpartition("_v")
    return f"{PETTINGZOO_NAMESPACE}/{game}-v{version}"


def _register_with_pettingzoo() -> None:
    """Every registered game in PettingZoo's AEC registry. The entry point is this
    registry's ``make``, so the module is imported (and its contract checked) only when an
    env is made; a game already there (this package imported again) is left as it is."""
    for name in names():
        env_id = pettingzoo_id(name)
        if env_id not in pettingzoo.aec_registry:
            pettingzoo.register("aec", env_id, entry_point=functools.partial(make, name))


_register_with_pettingzoo()
