"""Countdown, a stacked two-player game for the training tests, shaped like a game module.

A counter starts at ``start``; the mover takes 1 or 2 (actions 0 and 1) or resigns
(action 2). Taking the counter to 0 wins: +1 to the mover, -1 to the other. Taking 2 also
costs the *other* player 0.25 at once (a reward earned on someone else's move). Resigning
gives the mover -1 and the other +1. Everything is public and nothing is random, so every
game is fixed by the agents: the tests can rig who wins, on whose move the game ends and
which rewards land on an opponent's move.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from tabletop.envs.core import TERMINAL, IllegalActionError, State, env_constructors
from tabletop.envs.core.spec import GameSpec, Payoff, frozen_options
from tabletop.envs.core.view import text_view

TAKE_ONE, TAKE_TWO, RESIGN = 0, 1, 2
TAKE_TWO_PENALTY = 0.25
MAX_START = 20


class CountdownGame:
    name = "countdown"
    num_players = 2
    num_actions = 3

    def __init__(self, start: int = 5) -> None:
        if not 1 <= start <= MAX_START:
            raise ValueError(f"countdown: start must be in 1..{MAX_START}, got {start}")
        self.start = start

    def new_state(self, seed: int | None = None) -> CountdownState:
        return CountdownState(self)


class CountdownState:
    def __init__(self, game: CountdownGame) -> None:
        self.game = game
        self.counter = game.start
        self.player = 0
        self._rewards = [0.0, 0.0]
        self._returns = [0.0, 0.0]

    @property
    def current_player(self) -> int:
        return self.player

    def is_terminal(self) -> bool:
        return self.player == TERMINAL

    def legal_actions(self) -> list[int]:
        if self.is_terminal():
            return []
        return [TAKE_ONE, TAKE_TWO, RESIGN] if self.counter >= 2 else [TAKE_ONE, RESIGN]

    def apply(self, action: int) -> None:
        if action not in self.legal_actions():
            raise IllegalActionError(f"countdown: action {action} is not legal")
        mover, other = self.player, 1 - self.player
        self._rewards = [0.0, 0.0]
        if action == RESIGN:
            self._end(winner=other)
        else:
            self.counter -= action + 1
            if action == TAKE_TWO:
                self._rewards[other] -= TAKE_TWO_PENALTY
            if self.counter == 0:
                self._end(winner=mover)
            else:
                self.player = other
        self._returns = [total + r for total, r in zip(self._returns, self._rewards, strict=True)]

    def _end(self, winner: int) -> None:
        self._rewards[winner] += 1.0
        self._rewards[1 - winner] -= 1.0
        self.player = TERMINAL

    def clone(self) -> CountdownState:
        other = CountdownState(self.game)
        other.counter, other.player = self.counter, self.player
        other._rewards, other._returns = list(self._rewards), list(self._returns)
        return other

    def rewards(self) -> list[float]:
        return list(self._rewards)

    def returns(self) -> list[float]:
        return list(self._returns)

    def action_to_string(self, action: int) -> str:
        return ("take 1", "take 2", "resign")[action]

    def string_to_action(self, text: str) -> int:
        return ("take 1", "take 2", "resign").index(text)

    def render(self, observer: int | None = None) -> str:
        return f"counter {self.counter}, to move {self.player}"

    def view(self, observer: int | None = None) -> dict[str, Any]:
        return text_view(self, observer)

    def stats(self) -> dict[str, float]:
        return {"counter_left": float(self.counter)}

    def resample_hidden(self, observer: int, rng: random.Random) -> CountdownState:
        return self.clone()


class CountdownEncoder:
    name = "flat"
    version = 1

    def shape(self, game: CountdownGame) -> tuple[int, ...]:
        return (2,)

    def encode(self, state: CountdownState, player: int) -> np.ndarray:
        return np.array([state.counter / MAX_START, state.player == player], np.float32)


class ScriptedAgent:
    """Plays a fixed list of actions, then the first legal one."""

    def __init__(self, actions: list[int] | None = None) -> None:
        self.actions = list(actions or [])
        self._next = 0

    def reset(self) -> None:
        self._next = 0

    def act(self, state: State, player: int) -> int:
        if self._next < len(self.actions):
            self._next += 1
            return self.actions[self._next - 1]
        return state.legal_actions()[0]


class ResignAgent:
    """Always resigns: loses every game, from either seat."""

    def reset(self) -> None:
        """Stateless."""

    def act(self, state: State, player: int) -> int:
        return RESIGN


class TakeOneAgent:
    """Never resigns, always takes 1: beats a resigner; against itself the counter's parity
    decides, so the seat does."""

    def reset(self) -> None:
        """Stateless."""

    def act(self, state: State, player: int) -> int:
        return TAKE_ONE


def heuristic_agent(seed: int | None) -> TakeOneAgent:
    del seed  # deterministic
    return TakeOneAgent()


SPEC = GameSpec(
    name="countdown",
    env_name="countdown_v0",
    title="Countdown",
    game_class=CountdownGame,
    encoders={"flat": CountdownEncoder()},
    heuristic=heuristic_agent,
    payoff=Payoff.ZERO_SUM,
    min_players=2,
    max_players=2,
    max_plies=100,
    chance=False,
    hidden_information=False,
    options=frozen_options(start="the counter's starting value"),
    render_modes=("ansi",),
)

raw_env, env = env_constructors(SPEC)
