"""Regicide as a PettingZoo AEC environment (cooperative, 1-4 players).

    from tabletop.envs import regicide_v0
    env = regicide_v0.env(num_players=2)

Options: ``num_players`` (1-4), ``solo_yield`` (allow yielding in solo, never on two turns in
a row, RG-2.1), ``shaped_reward`` (+1/12 to everyone per enemy defeated, on top of the shared
±1, RG-8.1), ``encoder`` ("flat" or "entity"), ``max_plies`` (truncation safety net, RG-8.3),
``illegal_action`` ("raise" or "terminate"), ``render_mode`` ("ansi" or "human").
"""

from __future__ import annotations

from typing import Any

from tabletop.envs.core.aec import env_constructors
from tabletop.envs.regicide.encoders import ENCODERS
from tabletop.envs.regicide.engine import RegicideGame
from tabletop.envs.regicide.heuristic import RegicideHeuristic

metadata = {
    "name": "regicide_v0",
    "render_modes": ["ansi", "human"],
    "is_parallelizable": False,
    "render_fps": 1,
}

DEFAULT_MAX_PLIES = 2_000
"""Far above any real game: the longest of 10,000 random and heuristic games was 98 plies."""

BENCH_OPTIONS = [{"num_players": n} for n in (1, 2, 3, 4)]


def new_game(**game_options: Any) -> RegicideGame:
    """The rules engine's game object; ``new_game(...).new_state(seed=…)`` starts a game."""
    return RegicideGame.from_options(**game_options)


raw_env, env = env_constructors(new_game, ENCODERS, metadata, default_max_plies=DEFAULT_MAX_PLIES)


def heuristic_agent(seed: int | None = None) -> RegicideHeuristic:
    """The rule-based baseline; it is deterministic, ``seed`` is accepted for uniformity."""
    return RegicideHeuristic()
