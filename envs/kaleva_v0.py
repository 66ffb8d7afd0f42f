"""Kaleva as a PettingZoo AEC environment (competitive, 2 players: player_0 Silver,
player_1 Bronze).

    from tabletop.envs import kaleva_v0
    env = kaleva_v0.env()

Options: ``turn_limit`` (turns before a draw, KV-6.3, default 200), ``encoder`` ("flat" or
"entity"), ``max_plies`` (truncation safety net), ``illegal_action`` ("raise" or
"terminate"), ``render_mode`` ("ansi" or "human").
"""

from __future__ import annotations

from typing import Any

from tabletop.envs.core.aec import env_constructors
from tabletop.envs.kaleva.encoders import ENCODERS
from tabletop.envs.kaleva.engine import KalevaGame
from tabletop.envs.kaleva.heuristic import KalevaHeuristic

metadata = {
    "name": "kaleva_v0",
    "render_modes": ["ansi", "human"],
    "is_parallelizable": False,
    "render_fps": 1,
}

COMPETITIVE = True
"""Each seat plays for itself (returns +1/-1/0): benchmarks pit agents against each other."""

DEFAULT_MAX_PLIES = 2_000
"""A safety net only: the turn limit ends every game first (200 turns, plus at most 12
arrangement, and one Tuuri and one swap decision per turn)."""

BENCH_OPTIONS: list[dict[str, Any]] = [{}]


def new_game(**game_options: Any) -> KalevaGame:
    """The rules engine's game object; ``new_game(...).new_state(seed=…)`` starts a game."""
    return KalevaGame.from_options(**game_options)


raw_env, env = env_constructors(new_game, ENCODERS, metadata, default_max_plies=DEFAULT_MAX_PLIES)


def heuristic_agent(seed: int | None = None) -> KalevaHeuristic:
    """The rule-based baseline; it is deterministic, ``seed`` is accepted for uniformity."""
    del seed
    return KalevaHeuristic()
