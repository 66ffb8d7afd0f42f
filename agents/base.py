"""The uniform random agent and a helper to play one game with agents.

What an agent is (``Agent``) is declared beside the engine protocol, in
``tabletop.envs.core.protocol``; it is re-exported here and from ``tabletop.agents``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from tabletop.envs.core.protocol import Agent, State

__all__ = ["Agent", "MoveObserver", "RandomAgent", "play_game"]


class RandomAgent:
    """Uniform over the legal actions; with a seed, the same games give the same moves."""

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def reset(self) -> None:
        """Nothing to forget; the generator keeps running so later games differ."""

    def act(self, state: State, player: int) -> int:
        return self._rng.choice(state.legal_actions())


MoveObserver = Callable[[State, int], None]
"""on_move(state, action), called before ``action`` is applied to ``state``."""


def play_game(state: State, agents: Sequence[Agent], on_move: MoveObserver | None = None) -> State:
    """Play ``state`` to the end, ``agents[p]`` deciding for seat ``p``; returns ``state``.

    The state is mutated in place (and returned for chaining) so callers can read
    ``returns()`` and ``stats()`` afterwards without keeping a second reference.
    ``on_move`` sees each action before it is applied, when its text still describes a
    move about to be played (a game record notes it so).
    """
    if len(agents) != state.game.num_players:
        raise ValueError(f"{len(agents)} agents for a {state.game.num_players}-player game")
    for agent in {id(agent): agent for agent in agents}.values():
        agent.reset()
    while not state.is_terminal():
        player = state.current_player
        action = agents[player].act(state, player)
        if on_move is not None:
            on_move(state, action)
        state.apply(action)
    return state
