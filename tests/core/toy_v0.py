"""The toy game as an env module, shaped exactly like a real ``tabletop.envs.<game>_v0``."""

from __future__ import annotations

from toy_game import ToyFlatEncoder, ToyGame

from tabletop.envs.core import State, env_constructors
from tabletop.envs.core.spec import GameSpec, Payoff, frozen_options


class HighestCardAgent:
    """Always plays the highest card: good enough to stand in for a real baseline."""

    def reset(self) -> None:
        """Nothing to forget."""

    def act(self, state: State, player: int) -> int:
        return max(a for a in state.legal_actions() if a != state.game.num_actions - 1)


def heuristic_agent(seed: int | None) -> HighestCardAgent:
    del seed  # deterministic
    return HighestCardAgent()


SPEC = GameSpec(
    name="toy",
    env_name="toy_v0",
    title="Top Card",
    game_class=ToyGame,
    encoders={"flat": ToyFlatEncoder()},
    heuristic=heuristic_agent,
    payoff=Payoff.ZERO_SUM,
    min_players=2,
    max_players=3,
    max_plies=100,
    chance=True,
    hidden_information=True,
    options=frozen_options(
        num_players="players, 2 or 3", deck_size="cards 0..deck_size-1", hand_size="cards dealt"
    ),
    bench_options=({"num_players": 2}, {"num_players": 3}),
)

raw_env, env = env_constructors(SPEC)
