"""What an agent is, the uniform random agent, and a helper to play one game with agents.

Agents see the engine ``State`` rather than an encoded observation so that text play,
benchmarks and search share one interface. The price is discipline: an agent deciding for
``player`` must only use what that player may see (the conformance suite checks it by
resampling hidden information with ``State.resample_hidden`` and expecting the same decision).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol, runtime_checkable

from tabletop.envs.core.protocol import State


@runtime_checkable
class Agent(Protocol):
    """Something that picks moves for one seat of a game."""

    def reset(self) -> None:
        """Forget per-game memory; called before each new game."""
        ...

    def act(self, state: State, player: int) -> int:
        """A legal action id for ``player``, who is ``state.current_player``."""
        ...


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
