"""The toy game as an env module, shaped exactly like a real ``tabletop.envs.<game>_v0``."""

from __future__ import annotations

from typing import Any

from toy_game import ToyFlatEncoder, ToyGame

from tabletop.envs.core import Game, State, env_constructors

metadata = {"name": "toy_v0", "render_modes": ["ansi", "human"], "is_parallelizable": False}
ENCODERS = {"flat": ToyFlatEncoder()}
BENCH_OPTIONS = [{"num_players": 2}, {"num_players": 3}]


def new_game(**game_options: Any) -> Game:
    return ToyGame(**game_options)


raw_env, env = env_constructors(new_game, ENCODERS, metadata)


class HighestCardAgent:
    """Always plays the highest card: good enough to stand in for a real baseline."""

    def reset(self) -> None:
        """Nothing to forget."""

    def act(self, state: State, player: int) -> int:
        return max(a for a in state.legal_actions() if a != state.game.num_actions - 1)


def heuristic_agent(seed: int | None = None) -> HighestCardAgent:
    del seed  # deterministic
    return HighestCardAgent()
